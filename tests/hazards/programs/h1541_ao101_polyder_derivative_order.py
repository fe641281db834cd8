"""Derivatives of a fitted polynomial evaluated on a grid, for orders 0..3 (`jnp.polyder(c, m)`)."""

import jax.numpy as jnp


def derivative_on_grid(coeffs, grid, order):
    return jnp.polyval(jnp.polyder(coeffs, order), grid)


def main():
    coeffs = jnp.array([0.5, -1.0, 2.0, 0.25, 1.0])
    grid = jnp.linspace(-1.0, 1.0, 5)
    return [derivative_on_grid(coeffs, grid, m) for m in range(4)]
