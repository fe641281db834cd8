"""A gain started from a Python float (`jnp.asarray(1.0)`, a weakly typed float32) and
updated from a bfloat16 sensor reading: in the first step the weak gain meets bfloat16
and that product is rounded to bfloat16; from the second step on the gain is a float32
array and the product stays float32. Trap for AO103's guarded whole-loop form:
`lax.scan` takes the weak carry as the float32 that comes back and would run every step
with the weak gain, rounding every product; the guard must compare weak types too and
run the steps."""

import jax.numpy as jnp

STEPS = 12


def main():
    reading = jnp.linspace(0.3, 1.7, 8).astype(jnp.bfloat16)
    offset = jnp.linspace(-0.01, 0.01, 8, dtype=jnp.float32)
    gain = jnp.asarray(1.0)
    levels = []
    for _ in range(STEPS):
        level = gain * reading + offset
        gain = 0.8 * gain + 0.25 / jnp.mean(level)
        levels.append(level)
    return gain, jnp.stack(levels)
