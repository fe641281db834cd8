"""Initial weights kept as `w.astype(jnp.float32)` (already float32) to measure drift after
training.
"""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit)
def step(w, x, y):
    g = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (8, 3))
    y = x @ jnp.array([1.0, 2.0, 3.0])
    w = jnp.zeros(3)
    w_init = w.astype(jnp.float32)
    for _ in range(5):
        w = step(w, x, y)
    return w, jnp.linalg.norm(w - w_init)
