"""Recursive filter filled row by row; the decay per row comes from a NumPy table.
As a `lax.fori_loop` the row index is traced and cannot index a NumPy array."""

import jax.numpy as jnp
import numpy as np

DECAY = np.linspace(0.9, 0.5, 16)


def recursive_filter(x):
    y = jnp.zeros_like(x)
    y = y.at[0].set(x[0])
    for i in range(1, 16):
        y = y.at[i].set(DECAY[i] * y[i - 1] + x[i])
    return y


def main():
    return recursive_filter(jnp.cos(jnp.arange(16.0)))
