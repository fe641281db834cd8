"""A damped oscillator driven by a decaying envelope computed on the host. Trap for
AO101: jitted, the Python float `t` is a tracer, and `envelope` (another module) hands
it to `math.exp`, imported as `_exp`, which needs a Python number."""

import hazlib_decay
import jax.numpy as jnp


def drive(state, t):
    amp = hazlib_decay.envelope(t, 2.0)
    x, v = state[0], state[1]
    a = -4.0 * x - 0.1 * v + amp
    return jnp.stack([x + 0.01 * v, v + 0.01 * a])


def main():
    state = jnp.array([1.0, 0.0])
    t = 0.0
    for _ in range(200):
        state = drive(state, t)
        t = t + 0.01
    return state
