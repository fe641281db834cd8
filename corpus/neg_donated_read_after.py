"""Jacobi iteration for the 2D Poisson equation -lap(u) = f on the unit square.

We monitor the max change per sweep as a convergence diagnostic.
"""

import jax
import jax.numpy as jnp
import numpy as np

N = 32
H = 1.0 / (N - 1)
N_SWEEPS = 600


@jax.jit
def jacobi_sweep(u, f):
    interior = 0.25 * (
        u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] + H**2 * f[1:-1, 1:-1]
    )
    return u.at[1:-1, 1:-1].set(interior)


def main():
    x = np.linspace(0.0, 1.0, N)
    xx, yy = np.meshgrid(x, x, indexing="ij")
    f = jnp.asarray(2 * np.pi**2 * np.sin(np.pi * xx) * np.sin(np.pi * yy), dtype=jnp.float32)
    u = jnp.zeros((N, N))

    changes = []
    for _ in range(N_SWEEPS):
        u_new = jacobi_sweep(u, f)
        # reads the old iterate after the call: it must still be alive here
        changes.append(jnp.max(jnp.abs(u_new - u)))
        u = u_new

    exact = jnp.asarray(np.sin(np.pi * xx) * np.sin(np.pi * yy), dtype=jnp.float32)
    return {"u": u, "max_change": jnp.stack(changes), "error": jnp.max(jnp.abs(u - exact))}


if __name__ == "__main__":
    print(main())
