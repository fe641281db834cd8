"""Quasi-random phases from a linear congruential generator kept as a Python int:
`seed * 1103515245 + 12345` is exact in Python and wraps in int32 once traced."""

import jax.numpy as jnp


def main():
    seed = 42
    x = jnp.zeros(4)
    for _ in range(20):
        seed = (seed * 1103515245 + 12345) % 2147483648
        phase = seed / 2147483648.0
        x = x + jnp.cos(phase * jnp.arange(1.0, 5.0))
    return x, seed
