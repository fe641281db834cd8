"""Masked diffusion on a grid; the obstacle mask is a module-level NumPy array that
the loop updates in place with `np.copyto`. Trap for AO101: jit bakes the mask in as
a constant at the first call."""

import jax.numpy as jnp
import numpy as np

N = 16
MASK = np.ones((N, N), dtype=bool)


def diffuse(u):
    lap = jnp.roll(u, 1, 0) + jnp.roll(u, -1, 0) + jnp.roll(u, 1, 1) + jnp.roll(u, -1, 1) - 4 * u
    return jnp.where(MASK, u + 0.2 * lap, 0.0)


def main():
    np.copyto(MASK, True)
    u = jnp.zeros((N, N)).at[N // 2, N // 2].set(100.0)
    for t in range(20):
        u = diffuse(u)
        if t % 5 == 4:  # a closing door: more cells become walls
            walls = np.zeros((N, N), dtype=bool)
            walls[:, t // 5 + 2] = True
            np.copyto(MASK, ~walls & MASK)
    return u, jnp.sum(u)
