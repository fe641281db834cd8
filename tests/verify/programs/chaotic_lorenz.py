"""An eager forward-Euler simulation of the Lorenz system, 800 steps, returning the
final state. Each compiled step agrees with the eager one to float rounding (XLA fuses
the multiply-adds), but the system is chaotic: a one-ulp difference grows by a factor
of about e every 1.1 time units, and after 8 time units the final state differs in the
leading digit. Trap for AO103: "agrees to float rounding" per step is not agreement of
the result."""

import jax.numpy as jnp


def main():
    s = jnp.array([1.0, 1.0, 1.0])
    dt = 0.01
    for _ in range(800):
        x, y, z = s[0], s[1], s[2]
        ds = jnp.stack([10.0 * (y - x), x * (28.0 - z) - y, x * y - 8.0 / 3.0 * z])
        s = s + dt * ds
    return s
