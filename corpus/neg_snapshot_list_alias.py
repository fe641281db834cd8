"""Cahn-Hilliard phase separation (semi-implicit spectral step), keeping snapshots of the field.

Negative for donation in a compiled step: every step's input `phi` is also held by the list
`snapshots` (appended before the update), and the snapshots are returned; donating `phi` to
the jitted step would delete the arrays the list still holds.
"""

import jax
import jax.numpy as jnp
import numpy as np

N = 64
DT = 0.05
KAPPA = 0.5
N_STEPS = 120
SNAPSHOT_EVERY = 20


@jax.jit
def ch_step(phi, k2):
    mu_hat = jnp.fft.fft2(phi**3 - phi)
    phi_hat = (jnp.fft.fft2(phi) - DT * k2 * mu_hat) / (1.0 + DT * KAPPA * k2**2)
    return jnp.real(jnp.fft.ifft2(phi_hat))


def main():
    rng = np.random.default_rng(0)
    k = 2 * np.pi * np.fft.fftfreq(N, d=1.0)
    k2 = jnp.asarray(k[:, None] ** 2 + k[None, :] ** 2, dtype=jnp.float32)
    phi = jnp.asarray(0.1 * rng.normal(size=(N, N)), dtype=jnp.float32)

    snapshots = []
    for step in range(N_STEPS):
        if step % SNAPSHOT_EVERY == 0:
            snapshots.append(phi)
        phi = ch_step(phi, k2)

    return {"phi": phi, "snapshots": jnp.stack(snapshots), "mean": phi.mean()}


if __name__ == "__main__":
    print(main())
