"""A notebook habit: before training, `start = dict(locals())` records every local
variable for a later "what changed" report. Trap for AO201: the snapshot holds the
initial `params`, which the first `params = update(params, ...)` would donate."""

import jax
import jax.numpy as jnp


@jax.jit
def update(params, x, y):
    g = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    return params - 0.1 * g


def main():
    x = jnp.array([[1.0, 2.0], [0.0, 1.0], [1.0, -1.0]])
    y = jnp.array([1.0, 0.0, 2.0])
    params = jnp.array([0.3, -0.3])
    start = dict(locals())
    for _ in range(6):
        params = update(params, x, y)
    return params, params - start["params"]
