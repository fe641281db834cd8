"""2D heat equation on the unit square, explicit FTCS finite differences.

Hot Gaussian blob in a cold plate with fixed (Dirichlet) zero boundaries.
"""

import jax.numpy as jnp
import numpy as np

NX = NY = 96
DX = 1.0 / (NX - 1)
N_STEPS = 1000


def laplacian(u):
    # 5-point stencil on the interior, boundary rows/cols stay untouched
    return (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1]) / DX**2


def step(u, alpha):
    dt = 0.2 * DX**2 / alpha  # well inside the stability limit (0.25)
    interior = u[1:-1, 1:-1] + dt * alpha * laplacian(u)
    return jnp.pad(interior, 1)  # zero Dirichlet boundary


def initial_condition():
    x = np.linspace(0.0, 1.0, NX)
    y = np.linspace(0.0, 1.0, NY)
    xx, yy = np.meshgrid(x, y, indexing="ij")
    u0 = np.exp(-((xx - 0.4) ** 2 + (yy - 0.6) ** 2) / 0.01)
    u0[0, :] = u0[-1, :] = u0[:, 0] = u0[:, -1] = 0.0
    return jnp.asarray(u0, dtype=jnp.float32)


def main():
    u = initial_condition()
    alpha = 0.5
    total_heat = []
    for t in range(N_STEPS):
        u = step(u, alpha)
        if t % 100 == 0:
            total_heat.append(u.sum() * DX**2)
    return {
        "u": u,
        "total_heat": jnp.stack(total_heat),
        "peak": u.max(),
    }


if __name__ == "__main__":
    print(main())
