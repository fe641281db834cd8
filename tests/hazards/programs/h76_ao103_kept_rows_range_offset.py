"""A loop over `range(3, STEPS)` that keeps the field every fifth step (steps 5, 10,
15, ...). Trap for AO103's whole-loop form of values kept under a condition: the scan
stacks one row per iteration, so the row of step `s` is `s - 3`, not `s`; the lists
must receive exactly the rows of the steps the condition keeps, in order, and the
program also reads the last field and a list appended every step."""

import jax.numpy as jnp

STEPS = 23


def main():
    u = jnp.linspace(0.0, 1.0, 8, dtype=jnp.float32)
    energy = []
    kept = []
    for step in range(3, STEPS):
        du = jnp.roll(u, 1) - u
        u = u + 0.25 * du
        energy.append(jnp.sum(u**2))
        if step % 5 == 0:
            kept.append(u)
    return u, jnp.stack(energy), kept, jnp.stack(kept)
