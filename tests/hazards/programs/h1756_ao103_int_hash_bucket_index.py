"""Eager loop: feature hashing of the step number, `(t * 2654435761) % 16`, picks the
bucket a device row is added to (exact Python int eagerly).
"""

import jax.numpy as jnp


def main():
    table = jnp.zeros(16)
    for t in range(1, 9):
        bucket = (t * 2654435761) % 16
        row = jnp.ones(16) * 0.0 + jnp.arange(16.0) == bucket
        table = table + row * t
    return table
