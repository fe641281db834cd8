"""A (3,) profile blended with a (2, 3) table of two scenarios: the first step broadcasts
the carry to (2, 3), the Python loop goes on with that. Trap for AO103's whole-loop
form with computed carry types: both shapes are known and differ; `lax.scan` would
raise, the loop must stay a step."""

import jax.numpy as jnp

STEPS = 10


def blend(profile, scenarios):
    return 0.9 * profile + 0.1 * scenarios


def main():
    profile = jnp.zeros(3, jnp.float32)
    scenarios = jnp.ones((2, 3), jnp.float32).at[1].multiply(0.5)
    peaks = []
    for _ in range(STEPS):
        profile = blend(profile, scenarios)
        peaks.append(jnp.max(profile))
    return profile, jnp.stack(peaks)
