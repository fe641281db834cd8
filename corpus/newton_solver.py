"""Newton's method for a batch of discretized Bratu problems  u'' + lam * exp(u) = 0.

Each batch member has its own lam; finite differences on n interior points, u(0) = u(1) = 0.
"""

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)  # Newton needs the extra digits near the fold

N_POINTS = 48
N_NEWTON = 8


def residual_and_jacobian(u, lam, n):
    """u: (batch, n) interior values; lam: (batch,). Returns F (batch, n), J (batch, n, n)."""
    h = 1.0 / (n + 1)
    # second-difference matrix with homogeneous Dirichlet boundaries
    lap = (jnp.eye(n, k=1) + jnp.eye(n, k=-1) - 2.0 * jnp.eye(n)) / h**2
    # boundary contribution is zero here, but keep it explicit
    bc = jnp.zeros(n)
    source = lam[:, None] * jnp.exp(u)
    F = u @ lap.T + bc + source
    J = lap[None, :, :] + source[:, :, None] * jnp.eye(n)[None, :, :]
    return F, J


def newton(u0, lam, n, iters):
    u = u0
    res_norms = []
    for _ in range(iters):
        F, J = residual_and_jacobian(u, lam, n)
        du = jnp.linalg.solve(J, -F[..., None])[..., 0]
        u = u + du
        res_norms.append(jnp.linalg.norm(F, axis=-1))
    return u, jnp.stack(res_norms, axis=1)


def main():
    # lam below the fold point (~3.51) so the lower branch exists for all of them
    lam = jnp.asarray(np.linspace(0.1, 3.2, 32), dtype=jnp.float64)
    u0 = jnp.zeros((lam.shape[0], N_POINTS))
    u, res_norms = newton(u0, lam, N_POINTS, N_NEWTON)
    return {"u": u, "u_max": u.max(axis=1), "residual_norms": res_norms}


if __name__ == "__main__":
    print(main())
