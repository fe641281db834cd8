"""A histogram of counts decayed by half every step, kept as an integer array that
the first `* 0.5` turns into floats. Trap for AO103's whole-loop form: a Python loop
lets the carry's dtype change, `lax.scan` raises; the loop must stay a step (or a
guarded scan that sees the change and runs the steps)."""

import jax.numpy as jnp

N_STEPS = 12


def decay(counts, rate):
    return counts * rate + jnp.roll(counts, 1) * (1.0 - rate)


def main():
    counts = jnp.asarray([4, 0, 2, 9, 1], dtype=jnp.int32)
    totals = []
    for _ in range(N_STEPS):
        counts = decay(counts, 0.5)
        totals.append(jnp.sum(counts))
    return counts, jnp.stack(totals)
