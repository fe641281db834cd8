"""Soft-sphere particles in a 2D harmonic trap, velocity Verlet with a weak friction term.

Energy is recorded every step and positions every 10 steps for later plotting.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_PART = 128
DT = 0.01
FRICTION = 0.2
SIGMA = 0.3  # width of the Gaussian repulsion
N_STEPS = 300


def potential_energy(x):
    trap = 0.5 * jnp.sum(x**2)
    d2 = jnp.sum((x[:, None, :] - x[None, :, :]) ** 2, axis=-1)
    pair = jnp.exp(-d2 / (2 * SIGMA**2))
    # exclude self-interaction (diagonal is exp(0) = 1), count each pair once
    return trap + 0.5 * (jnp.sum(pair) - x.shape[0])


force = jax.grad(lambda x: -potential_energy(x))


@jax.jit
def verlet_step(x, v):
    a = force(x) - FRICTION * v
    v_half = v + 0.5 * DT * a
    x_new = x + DT * v_half
    a_new = force(x_new) - FRICTION * v_half
    v_new = v_half + 0.5 * DT * a_new
    return x_new, v_new


@jax.jit
def total_energy(x, v):
    return potential_energy(x) + 0.5 * jnp.sum(v**2)


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(scale=1.5, size=(N_PART, 2)), dtype=jnp.float32)
    v = jnp.asarray(rng.normal(scale=0.5, size=(N_PART, 2)), dtype=jnp.float32)

    energies = []
    snapshots = []
    for t in range(N_STEPS):
        x, v = verlet_step(x, v)
        energies.append(total_energy(x, v).item())
        if t % 10 == 0:
            snapshots.append(np.asarray(x))

    return {
        "energy": np.array(energies),
        "trajectory": np.stack(snapshots),
        "x": x,
        "v": v,
    }


if __name__ == "__main__":
    print(main())
