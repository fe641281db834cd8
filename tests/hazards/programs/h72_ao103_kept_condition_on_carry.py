"""A smoothing loop that keeps the field's total while its peak is still above a
threshold: the condition reads the carried field, a device value that changes every
step. Trap for AO103's whole-loop form of values kept under a condition: the rows to
keep cannot be chosen after the loop by evaluating the condition again (it would read
the last field and keep none); the loop must keep its step form."""

import jax.numpy as jnp

STEPS = 12
LIMIT = 0.55


def main():
    field = jnp.zeros(16, dtype=jnp.float32).at[8].set(1.0)
    totals = []
    for _ in range(STEPS):
        smooth = 0.25 * (jnp.roll(field, 1) + jnp.roll(field, -1)) + 0.5 * field
        field = field + 0.6 * (smooth - field)
        if jnp.max(field) > LIMIT:
            totals.append(jnp.sum(field**2))
    return field, totals
