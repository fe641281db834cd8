"""Soft-sphere particles in a 2D harmonic trap, velocity Verlet with a weak friction term.

Hand-optimized: the rollout is one lax.scan; diagnostics stay on device until the end.
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


def verlet_step(x, v):
    a = force(x) - FRICTION * v
    v_half = v + 0.5 * DT * a
    x_new = x + DT * v_half
    a_new = force(x_new) - FRICTION * v_half
    v_new = v_half + 0.5 * DT * a_new
    return x_new, v_new


def total_energy(x, v):
    return potential_energy(x) + 0.5 * jnp.sum(v**2)


@jax.jit
def rollout(x, v):
    def body(carry, _):
        x, v = verlet_step(*carry)
        return (x, v), (total_energy(x, v), x)

    (x, v), (energies, xs) = jax.lax.scan(body, (x, v), None, length=N_STEPS)
    return x, v, energies, xs[::10]


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(scale=1.5, size=(N_PART, 2)), dtype=jnp.float32)
    v = jnp.asarray(rng.normal(scale=0.5, size=(N_PART, 2)), dtype=jnp.float32)

    x, v, energies, snapshots = rollout(x, v)
    energies, snapshots = jax.device_get((energies, snapshots))  # one transfer at the end
    return {
        "energy": np.asarray(energies, dtype=np.float64),
        "trajectory": snapshots,
        "x": x,
        "v": v,
    }


if __name__ == "__main__":
    print(main())
