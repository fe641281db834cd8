"""Readings of varying size summed with `.item()` inside a `try` that skips the ones that
are not one value; the sum is printed every 3 steps. Trap for AO302's interval form: kept
on the device, a reading of two values would fail only at the print, outside the `try`."""

import jax.numpy as jnp


def main():
    total = 0.0
    for t in range(9):
        reading = jnp.arange(float(1 + t % 4 // 3)) + t
        try:
            total += reading.item()
        except ValueError:
            print("skipped", t)
        if t % 3 == 2:
            print(t, total)
    return total
