"""An equinox "weight-shared" residual MLP: the caller builds one `eqx.nn.Linear` and
hands it to the module, which stores it as both of its blocks. Trap for AO201: every
weight of the model is a leaf twice, so `eqx.filter_jit(donate="all")` (or any
donation of `model`) donates each buffer twice."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class SharedResidual(eqx.Module):
    first: eqx.nn.Linear
    second: eqx.nn.Linear

    def __init__(self, block):
        self.first = block
        self.second = block

    def __call__(self, x):
        x = x + jnp.tanh(self.first(x))
        return x + jnp.tanh(self.second(x))


OPT = optax.sgd(0.05)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss(m):
        pred = jax.vmap(m)(x)
        return jnp.mean((pred - y) ** 2)

    value, grads = eqx.filter_value_and_grad(loss)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return model, opt_state, value


def main():
    block = eqx.nn.Linear(3, 3, key=jax.random.key(1))
    model = SharedResidual(block)
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = jnp.sin(x)
    for i in range(5):
        model, opt_state, value = make_step(model, opt_state, x, y)
        print(i, round(float(value), 5))
    return model.first.weight, model.second.bias
