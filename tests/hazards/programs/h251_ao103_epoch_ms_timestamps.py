"""Replaying a sensor log keyed by millisecond Unix timestamps: the loop runs over
the timestamps themselves and uses `(ts - T0)`, exact for Python ints. A timestamp
does not fit in int32 once traced."""

import jax.numpy as jnp

T0 = 1_700_000_000_000


def main():
    state = jnp.zeros(3)
    gain = jnp.array([1.0, 0.5, 0.25])
    for ts in range(T0, T0 + 12):
        phase = jnp.sin((ts - T0) * 0.3)
        state = 0.9 * state + gain * phase
    return state
