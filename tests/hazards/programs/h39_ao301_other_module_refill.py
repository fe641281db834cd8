"""Streaming filter over a camera from another module of the project: `capture()`
refills the module's FRAME buffer in place. Trap for AO301: the buffer is changed by a
function of another file, which the loop calls without passing the buffer."""

import jax.numpy as jnp
from hazlib_sensors import FRAME, capture, reset


def smooth(state, x):
    return 0.8 * state + 0.2 * jnp.tanh(x)


def main():
    reset()
    state = jnp.zeros(5)
    for _ in range(20):
        capture()
        state = smooth(state, jnp.asarray(FRAME))
    return state
