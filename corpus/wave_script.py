"""2D scalar wave equation on a drum head (fixed rim), leapfrog finite differences.

Written as a script: the time loop runs at module level when the file is imported, and
`main()` reports what it left behind. The probe signal at one point is recorded every step.
"""

import jax.numpy as jnp
import numpy as np

GRID = 96
C = 1.0
H = 1.0 / (GRID - 1)
DT = 0.5 * H / C
N_STEPS = 800
PROBE = (GRID // 3, GRID // 4)

yy, xx = np.mgrid[0:GRID, 0:GRID] * H
bump = np.exp(-((xx - 0.6) ** 2 + (yy - 0.45) ** 2) / 0.004).astype(np.float32)
interior = np.zeros((GRID, GRID), np.float32)
interior[1:-1, 1:-1] = 1.0

courant2 = (C * DT / H) ** 2
mask = jnp.asarray(interior)
u_prev = jnp.asarray(bump) * mask
u = u_prev
probe = []
for _ in range(N_STEPS):
    lap = (
        jnp.roll(u, 1, axis=0)
        + jnp.roll(u, -1, axis=0)
        + jnp.roll(u, 1, axis=1)
        + jnp.roll(u, -1, axis=1)
        - 4.0 * u
    )
    u_next = (2.0 * u - u_prev + courant2 * lap) * mask
    u_prev, u = u, u_next
    probe.append(u[PROBE])

signal = jnp.stack(probe)


def main():
    energy = jnp.sum((u - u_prev) ** 2) / DT**2 + C**2 * jnp.sum(jnp.diff(u, axis=0) ** 2) / H**2
    return {"u": u, "probe": signal, "energy": 0.5 * energy * H**2}


if __name__ == "__main__":
    print(main())
