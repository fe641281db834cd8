"""Early-stopping bookkeeping: the best parameters so far are saved with
`copy.copy(params)`, a shallow copy of the dict: new dict, same arrays."""

import copy

import jax
import jax.numpy as jnp


@jax.jit
def train(params, x, y):
    def loss(p):
        return jnp.mean((x * p["a"] + p["c"] - y) ** 2)

    g = jax.grad(loss)(params)
    return {k: params[k] - 0.2 * g[k] for k in params}


def main():
    x = jnp.linspace(0.0, 1.0, 10)
    y = 3.0 * x - 1.0
    params = {"a": jnp.array(0.0), "c": jnp.array(0.0)}
    best = copy.copy(params)
    for _ in range(10):
        params = train(params, x, y)
    return best, params
