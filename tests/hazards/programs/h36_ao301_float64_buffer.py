"""Iterative refinement of a linear solve: the correction is solved in float32, the
residual is computed in float64 inside `jax.enable_x64(True)` from the float64 host
arrays. Trap for AO301: hoisting the transfers out of the loop also moves them out of
the x64 block, so the float64 data arrive as float32 and the refinement stalls."""

import jax
import jax.numpy as jnp
import numpy as np


def main():
    n = 6
    rng = np.random.default_rng(17)
    a64 = rng.normal(size=(n, n)) + n * np.eye(n)
    b64 = rng.normal(size=n) * 1e3 + 1.0 / 3.0
    a32 = jnp.asarray(a64, jnp.float32)
    x = jnp.linalg.solve(a32, jnp.asarray(b64, jnp.float32))
    for _ in range(4):
        with jax.enable_x64(True):
            r = jnp.asarray(b64) - jnp.asarray(a64) @ x.astype(jnp.float64)
            error = jnp.linalg.norm(r)
        x = x + jnp.linalg.solve(a32, r.astype(jnp.float32))
    return x, float(error), str(r.dtype)
