"""A 1-D bias "copied" with `.T` (a no-op for one axis, the same array) before a
jitted update loop.
"""

import jax
import jax.numpy as jnp


@jax.jit
def fit_bias(b, x, y):
    g = jax.grad(lambda b: jnp.mean((x + b - y) ** 2))(b)
    return b - 0.2 * g


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (8, 5))
    y = x + jnp.arange(5.0)
    b = jnp.zeros(5) + 0.25
    b_ref = b.T
    for _ in range(6):
        b = fit_bias(b, x, y)
    return b, b - b_ref
