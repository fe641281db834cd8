"""A class of the program named like equinox's pooling layer, `MaxPool2d`, holds the
array it is given; the model's list holds two of them given one array. Trap for AO201:
only `eqx.nn.MaxPool2d` is known to hold no array, not a name spelled alike: the
model holds one buffer in two leaves, and donating it would donate that buffer twice,
which XLA refuses."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class MaxPool2d(eqx.Module):
    scale: jax.Array

    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        return x * self.scale


class Model(eqx.Module):
    layers: list

    def __init__(self, key, scale):
        self.layers = [eqx.nn.Linear(4, 4, key=key), MaxPool2d(scale), MaxPool2d(scale)]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return jnp.sum(x)


optim = optax.sgd(0.1)


@eqx.filter_jit
def make_step(model, opt_state, x):
    value, grads = eqx.filter_value_and_grad(lambda m: m(x))(model)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, value


def main():
    model = Model(jax.random.key(0), jnp.full(4, 0.5))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.ones(4)
    values = []
    for _ in range(3):
        model, opt_state, value = make_step(model, opt_state, x)
        values.append(value)
    return values, model.layers[1].scale
