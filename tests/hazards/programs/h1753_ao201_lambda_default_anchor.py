"""An L2-to-init penalty written as a lambda with a default argument
(`lambda p, p0=params: ...`): the default holds the initial params.
"""

import jax
import jax.numpy as jnp


@jax.jit
def step(params, x):
    g = jax.grad(lambda p: jnp.mean((x @ p - 1.0) ** 2))(params)
    return params - 0.2 * g


def main():
    x = jax.random.normal(jax.random.PRNGKey(6), (9, 3))
    params = jnp.zeros(3) + 0.4
    penalty = lambda p, p0=params: jnp.sum((p - p0) ** 2)  # noqa: E731
    for _ in range(5):
        params = step(params, x)
    return params, penalty(params)
