"""Per-example energies of Python-float examples with a large offset that cancels:
eagerly the cancellation is exact in float64.
"""

import jax.numpy as jnp

OFFSET = 10000.0


def energy(x):
    return jnp.exp(-(((x + OFFSET) - OFFSET) ** 2))


def main():
    xs = [0.1234, 0.5678, 0.9012]
    return jnp.stack([energy(x) for x in xs])
