"""Damped oscillator whose damping is tuned from another module of the project:
`hazlib_tuning.retune()` imports this module and assigns `DAMPING` on it. Nothing in
this file rebinds `DAMPING`. Trap for AO101: jit would freeze `damp`'s read of it."""

import hazlib_tuning
import jax.numpy as jnp

DAMPING = 0.3


def damp(state):
    position, velocity = state[0], state[1]
    velocity = velocity - 0.1 * position - DAMPING * velocity
    return jnp.stack([position + 0.1 * velocity, velocity])


def main():
    state = jnp.array([1.0, 0.0])
    trace = []
    for step in range(30):
        state = damp(state)
        trace.append(state)
        if step == 9:
            hazlib_tuning.retune(0.05)
    return jnp.stack(trace)
