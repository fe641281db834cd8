"""A `while` loop over simulated time in Python floats; the step count read after the loop."""

import jax.numpy as jnp


def main():
    t = 0.0
    dt = 0.1
    y = jnp.array([1.0, 2.0])
    n = 0
    while t < 1.0:
        y = y + dt * (-0.5 * y)
        y = y * 0.99
        t += dt
        n += 1
    return y, n, t
