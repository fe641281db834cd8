"""Damped oscillator integrated for a fixed number of steps; the step count reached is
read from the loop variable afterwards. Trap for AO103's whole-loop form: `lax.scan`
binds no loop variable, so `step` would be unbound after the loop."""

import jax.numpy as jnp

N_STEPS = 40


def main():
    pos = jnp.asarray([1.0, -0.5], dtype=jnp.float32)
    vel = jnp.zeros(2, jnp.float32)
    for step in range(N_STEPS):  # noqa: B007 (read after the loop, the trap)
        acc = -4.0 * pos - 0.3 * vel
        vel = vel + 0.05 * acc
        pos = pos + 0.05 * vel
    return pos, vel, step
