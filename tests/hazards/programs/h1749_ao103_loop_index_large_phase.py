"""Eager simulation: a forcing `0.05 * jnp.sin(t * 1234.5678)` of the loop index. Eagerly
`t * 1234.5678` is a Python float (float64); traced it is a float32 product.
"""

import jax.numpy as jnp


def main():
    x = jnp.zeros(3)
    v = jnp.ones(3) * 0.1
    for t in range(40):
        force = 0.05 * jnp.sin(t * 1234.5678) - 0.1 * x
        v = v + 0.1 * force
        x = x + 0.1 * v
    return x, v
