"""Lennard-Jones-like soft particles in a periodic box, velocity Verlet with a Berendsen
thermostat.

The loop body is several calls with the glue arithmetic between them written inline: two
half kicks, a drift with wrap-around, the temperature and the thermostat rescale.
"""

import jax.numpy as jnp
import numpy as np

N_ATOMS = 27
BOX = 4.5
DT = 0.004
TARGET_T = 0.05
TAU = 0.1
N_STEPS = 700


def minimum_image(delta):
    return delta - BOX * jnp.round(delta / BOX)


def pair_forces(pos):
    delta = minimum_image(pos[:, None, :] - pos[None, :, :])
    r2 = jnp.sum(delta**2, axis=-1) + jnp.eye(pos.shape[0])
    inv6 = 1.0 / (r2**3 + 0.5)  # softened so close pairs stay finite
    magnitude = 24.0 * inv6 * (2.0 * inv6 - 1.0) / r2 * (1.0 - jnp.eye(pos.shape[0]))
    return jnp.sum(magnitude[:, :, None] * delta, axis=1)


def kinetic_temperature(vel):
    return jnp.sum(vel**2) / (3 * vel.shape[0])


def main():
    rng = np.random.default_rng(0)
    side = round(N_ATOMS ** (1 / 3))
    grid = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3)
    pos = jnp.asarray((grid + 0.5) * BOX / side + 0.05 * rng.normal(size=grid.shape), jnp.float32)
    vel = jnp.asarray(rng.normal(scale=np.sqrt(TARGET_T), size=(N_ATOMS, 3)), jnp.float32)
    vel = vel - vel.mean(axis=0)

    force = pair_forces(pos)
    temperatures = []
    for _ in range(N_STEPS):
        vel = vel + 0.5 * DT * force
        pos = jnp.mod(pos + DT * vel, BOX)
        force = pair_forces(pos)
        vel = vel + 0.5 * DT * force
        temp = kinetic_temperature(vel)
        vel = vel * jnp.sqrt(1.0 + DT / TAU * (TARGET_T / temp - 1.0))
        temperatures.append(temp)

    return {"pos": pos, "vel": vel, "temperature": jnp.stack(temperatures)}


if __name__ == "__main__":
    print(main())
