"""A driven oscillator integrated step by step; the forcing phase is computed from the
step index as a Python float, `OMEGA * step * DT`, which reaches a few thousand radians.
Trap for AO101: jitted, `step` is traced as int32 and the phase is rounded to float32
(a spacing of 2e-4 rad near 3000) before `sin`, which moves the forcing."""

import jax.numpy as jnp

OMEGA = 2000.0
DT = 0.05


def advance(state, step):
    x, v = state
    force = jnp.sin(OMEGA * step * DT)
    v = v + DT * (force - x)
    return jnp.stack([x + DT * v, v])


def main():
    state = jnp.array([1.0, 0.0])
    forces = []
    for step in range(30, 40):
        state = advance(state, step)
        forces.append(state[1])
    return state, jnp.stack(forces)
