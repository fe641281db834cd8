"""A counted `while` loop whose counter the program returns: it starts at 1 and runs
while `k <= SWEEPS`, so the loop leaves `k == SWEEPS + 1` after SWEEPS iterations. Trap
for AO103's whole-loop form of a counted `while`: `lax.scan` binds no counter, so the
rewrite must set it to the value the loop leaves (not SWEEPS, not SWEEPS - 1) and run
exactly SWEEPS steps."""

import jax.numpy as jnp

SWEEPS = 9


def main():
    field = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    energy = []
    k = 1
    while k <= SWEEPS:
        smooth = 0.25 * (jnp.roll(field, 1) + jnp.roll(field, -1)) + 0.5 * field
        field = field + 0.3 * (smooth - field)
        energy.append(jnp.sum(field**2))
        k += 1
    return k, field, jnp.stack(energy)
