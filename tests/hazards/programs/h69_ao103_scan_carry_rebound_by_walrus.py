"""A (3,) profile that an assignment expression blends with a (2, 3) table of two
scenarios before the step scales it: the first step broadcasts it to (2, 3). The
dataflow graph does not see what `:=` binds, so the carry looks rebound only by
`profile * 0.5`. Trap for AO103's whole-loop form: `lax.scan` would raise on the
carry's new shape; the loop must stay a step."""

import jax.numpy as jnp

STEPS = 8


def main():
    profile = jnp.zeros(3, jnp.float32)
    table = jnp.ones((2, 3), jnp.float32).at[1].multiply(0.5)
    peaks = []
    for _ in range(STEPS):
        peak = jnp.max(profile := 0.9 * profile + 0.1 * table)
        profile = profile * 0.5
        peaks.append(peak)
    return profile, jnp.stack(peaks)
