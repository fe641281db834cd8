"""A Python-list habit: `w_init = w[:]` to "copy" the weights before training, read
after to report how far they moved. For a JAX array `w[:]` is `w` itself. Trap for
AO201: donating `w` deletes `w_init`."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    g = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * g


def main():
    x = jnp.array([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0]])
    y = jnp.array([1.0, 0.0, 2.0])
    w = jnp.array([0.5, -0.5, 0.25])
    w_init = w[:]
    for _ in range(6):
        w = step(w, x, y)
    return w, jnp.linalg.norm(w - w_init)
