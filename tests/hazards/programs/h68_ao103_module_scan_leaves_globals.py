"""A script whose leapfrog loop runs at module level; `main()` reads what the loop left
as module globals: the last Laplacian `lap` and the last `u_next` (temporaries of the
loop, read by `report()`), the probe list `probe` (a list of the values appended) and
the stacked `signal`. Trap for AO103's whole-loop form: a `lax.scan` that does not carry
the temporaries leaves them unbound (NameError in `report`), and one that hands `probe`
the stacked array turns the list into an array."""

import jax.numpy as jnp
import numpy as np

N_STEPS = 60
interior = np.zeros((12, 12), np.float32)
interior[1:-1, 1:-1] = 1.0
mask = jnp.asarray(interior)
yy, xx = np.mgrid[0:12, 0:12] / 11.0
bump = np.exp(-((xx - 0.5) ** 2 + (yy - 0.4) ** 2) / 0.02).astype(np.float32)
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
    u_next = (2.0 * u - u_prev + 0.2 * lap) * mask
    u_prev, u = u, u_next
    probe.append(u[4, 3])

signal = jnp.stack(probe)


def report():
    return jnp.sum(lap**2), u_next


def main():
    return u, u_prev, signal, probe[::10], report()
