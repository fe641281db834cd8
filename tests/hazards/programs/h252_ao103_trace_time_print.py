"""A jitted step prints a line when it is traced ("compiling ..."), a common way to
spot retraces; the eager loop around it traces it once, so the line appears once."""

import jax
import jax.numpy as jnp


@jax.jit
def diffuse(u):
    print("compiling diffuse for", u.shape)
    return u + 0.1 * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


def main():
    u = jnp.zeros(16).at[8].set(1.0)
    for _ in range(20):
        u = diffuse(u)
        u = u * 0.99
    return u
