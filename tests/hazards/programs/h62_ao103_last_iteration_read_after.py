"""Relaxation toward a target; the last correction is reported after the loop. Trap
for AO103's whole-loop form: the scan would not bind `correction`, a name of the last
iteration that the code after the loop reads."""

import jax.numpy as jnp

N_STEPS = 25


def main():
    target = jnp.linspace(0.0, 1.0, 6, dtype=jnp.float32)
    x = jnp.zeros(6, jnp.float32)
    for _ in range(N_STEPS):
        correction = 0.2 * (target - x)
        x = x + correction
    return x, jnp.max(jnp.abs(correction))
