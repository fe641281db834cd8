"""Smoothness penalty of a polynomial: squared derivatives of orders 1..3 on a grid
(`jnp.polyder`).
"""

import jax.numpy as jnp


def main():
    coeffs = jnp.array([0.2, -0.5, 1.0, 3.0, -1.0])
    grid = jnp.linspace(-1.0, 1.0, 9)
    penalty = jnp.zeros(())
    for m in range(1, 4):
        deriv = jnp.polyval(jnp.polyder(coeffs, m), grid)
        penalty = penalty + jnp.mean(deriv**2)
    return penalty
