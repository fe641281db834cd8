"""A model whose layers are a list: one `eqx.nn.Linear` twice, around a pooling layer
that holds no array. Trap for AO201: a pooling layer given sizes adds no leaf, but the
list still holds the linear layer's weight in two leaves: donating `model` would
donate one buffer twice, which XLA refuses; only `opt_state` may be donated."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Model(eqx.Module):
    layers: list

    def __init__(self, key):
        linear = eqx.nn.Linear(4, 4, key=key)
        self.layers = [linear, eqx.nn.AvgPool1d(kernel_size=1), jax.nn.relu, linear]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x[None])[0] if isinstance(layer, eqx.nn.AvgPool1d) else layer(x)
        return jnp.sum(x)


optim = optax.sgd(0.1)


@eqx.filter_jit
def make_step(model, opt_state, x):
    value, grads = eqx.filter_value_and_grad(lambda m: m(x))(model)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, value


def main():
    model = Model(jax.random.key(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.ones(4)
    values = []
    for _ in range(3):
        model, opt_state, value = make_step(model, opt_state, x)
        values.append(value)
    return values, model.layers[0].weight
