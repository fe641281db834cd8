"""An eager filter loop whose state starts as `h = jnp.asarray(h0)` of a JAX array `h0`
that is returned after the loop; `jnp.asarray` returns `h0` itself. Trap for AO103: a
compiled step donating the carry `h` deletes `h0` at the first step."""

import jax.numpy as jnp


def main():
    h0 = jnp.array([0.5, -0.5, 1.0])
    a = jnp.array([[0.9, 0.1, 0.0], [0.0, 0.8, 0.1], [0.1, 0.0, 0.7]])
    h = jnp.asarray(h0)
    for _ in range(4):
        h = a @ h
        h = jnp.tanh(h) + 0.1
    return h, h0
