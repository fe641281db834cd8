"""A hanging rope as a chain of point masses and damped springs, pinned at both ends.

The simulation state is a dataclass; semi-implicit Euler steps, with the sag of the middle
mass and the elastic energy recorded every step.
"""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

N_MASSES = 64
REST = 0.05
STIFFNESS = 800.0
DAMPING = 0.8
GRAVITY = jnp.array([0.0, -9.81])
DT = 2e-3
N_STEPS = 250


@dataclass
class RopeState:
    pos: jax.Array
    vel: jax.Array


def spring_forces(pos):
    seg = pos[1:] - pos[:-1]
    length = jnp.linalg.norm(seg, axis=1, keepdims=True)
    tension = STIFFNESS * (length - REST) * seg / length
    force = jnp.zeros_like(pos)
    force = force.at[:-1].add(tension)
    return force.at[1:].add(-tension)


def elastic_energy(pos):
    length = jnp.linalg.norm(pos[1:] - pos[:-1], axis=1)
    return 0.5 * STIFFNESS * jnp.sum((length - REST) ** 2)


def step(state, pinned):
    accel = spring_forces(state.pos) + GRAVITY - DAMPING * state.vel
    vel = jnp.where(pinned, 0.0, state.vel + DT * accel)
    return RopeState(pos=state.pos + DT * vel, vel=vel)


def main():
    rng = np.random.default_rng(0)
    xs = np.linspace(0.0, 2.5, N_MASSES)
    start = np.stack([xs, 0.02 * rng.normal(size=N_MASSES)], axis=1).astype(np.float32)
    pinned = np.zeros((N_MASSES, 1), bool)
    pinned[[0, -1]] = True

    state = RopeState(pos=jnp.asarray(start), vel=jnp.zeros((N_MASSES, 2)))
    pinned = jnp.asarray(pinned)
    sag, energy = [], []
    for _ in range(N_STEPS):
        state = step(state, pinned)
        sag.append(state.pos[N_MASSES // 2, 1])
        energy.append(elastic_energy(state.pos))

    return {
        "pos": state.pos,
        "vel": state.vel,
        "sag": jnp.stack(sag),
        "elastic_energy": jnp.stack(energy),
    }


if __name__ == "__main__":
    print(main())
