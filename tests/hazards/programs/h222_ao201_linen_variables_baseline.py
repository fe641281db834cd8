"""flax linen: `variables = model.init(...)`, `params = variables["params"]`, a jitted
step on `params`, and the initial `variables` used at the end for a baseline."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(jnp.tanh(nn.Dense(4)(x)))


model = MLP()


@jax.jit
def step(params, x, y):
    def loss(p):
        return jnp.mean((model.apply({"params": p}, x) - y) ** 2)

    g = jax.grad(loss)(params)
    return jax.tree.map(lambda p, d: p - 0.1 * d, params, g)


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    y = x[:, :1] * 2.0
    variables = model.init(jax.random.PRNGKey(0), x)
    params = variables["params"]
    for _ in range(8):
        params = step(params, x, y)
    return model.apply({"params": params}, x), model.apply(variables, x)
