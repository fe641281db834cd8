"""Non-negative least squares for spectral unmixing, by projected gradient descent.

Hand-optimized: the counted `while` loop has a fixed trip count, so it runs as one jitted
lax.scan that also emits the objective of every iteration.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_BANDS = 120
N_ENDMEMBERS = 12
N_PIXELS = 64
MAX_ITERS = 600


def objective(abundances, library, pixels):
    residual = library @ abundances - pixels
    return 0.5 * jnp.sum(residual**2) / pixels.shape[1]


def projected_gradient_step(abundances, library, pixels, step_size):
    gradient = library.T @ (library @ abundances - pixels)
    return jnp.maximum(abundances - step_size * gradient, 0.0)


@jax.jit
def solve(abundances, library, pixels, step_size):
    def body(abundances, _):
        abundances = projected_gradient_step(abundances, library, pixels, step_size)
        return abundances, objective(abundances, library, pixels)

    return jax.lax.scan(body, abundances, None, length=MAX_ITERS)


def main():
    rng = np.random.default_rng(0)
    wavelengths = np.linspace(0.0, 1.0, N_BANDS)
    centers = rng.uniform(0.05, 0.95, size=N_ENDMEMBERS)
    widths = rng.uniform(0.03, 0.15, size=N_ENDMEMBERS)
    library = np.exp(-((wavelengths[:, None] - centers) ** 2) / (2 * widths**2))
    truth = rng.dirichlet(np.ones(N_ENDMEMBERS) * 0.3, size=N_PIXELS).T
    pixels = library @ truth + 0.01 * rng.normal(size=(N_BANDS, N_PIXELS))

    library = jnp.asarray(library, dtype=jnp.float32)
    pixels = jnp.asarray(pixels, dtype=jnp.float32)
    step_size = 1.0 / jnp.linalg.norm(library, ord=2) ** 2

    abundances = jnp.full((N_ENDMEMBERS, N_PIXELS), 1.0 / N_ENDMEMBERS)
    abundances, trace = solve(abundances, library, pixels, step_size)
    iteration = MAX_ITERS

    return {
        "abundances": abundances,
        "objective": trace,
        "error": jnp.abs(abundances - jnp.asarray(truth, dtype=jnp.float32)).mean(),
        "iterations": iteration,
    }


if __name__ == "__main__":
    print(main())
