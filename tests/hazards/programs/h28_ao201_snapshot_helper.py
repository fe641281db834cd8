"""Particle simulation that records snapshots every few steps through a helper that
appends the state to a module-level list. Trap for AO201: the snapshot list holds
buffers that later steps donate; the returned snapshots are deleted."""

import jax
import jax.numpy as jnp

SNAPSHOTS = []


def snapshot(state):
    SNAPSHOTS.append(state)


@jax.jit
def advance(state, dt):
    pos, vel = state
    acc = -pos / (jnp.sum(pos**2, axis=1, keepdims=True) + 0.1) ** 1.5
    vel = vel + dt * acc
    return pos + dt * vel, vel


def main():
    SNAPSHOTS.clear()
    angle = jnp.linspace(0.0, 2.0 * jnp.pi, 6, endpoint=False)
    pos = jnp.stack([jnp.cos(angle), jnp.sin(angle)], axis=1)
    state = (pos, 0.8 * jnp.stack([-jnp.sin(angle), jnp.cos(angle)], axis=1))
    for t in range(30):
        if t % 10 == 0:
            snapshot(state)
        state = advance(state, 0.05)
    return SNAPSHOTS, state
