"""Model selection: polynomial fits of degree 1..4, residual per degree (`jnp.polyfit(x, y,
deg)`).
"""

import jax
import jax.numpy as jnp


def fit_residual(x, y, degree):
    coeffs = jnp.polyfit(x, y, degree)
    return jnp.mean((jnp.polyval(coeffs, x) - y) ** 2)


def main():
    x = jnp.linspace(-1.0, 1.0, 20)
    y = jnp.sin(2.0 * x) + 0.05 * jax.random.normal(jax.random.PRNGKey(0), (20,))
    residuals = []
    for deg in range(1, 5):
        residuals.append(fit_residual(x, y, deg))
    return residuals
