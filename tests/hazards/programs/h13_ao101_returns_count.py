"""Leaky integrate-and-fire neurons; `count_spikes` returns how many neurons fired as
a Python int, which the loop uses as a list index and sums. Trap for AO101: jit
returns an array, or raises on the data-dependent nonzero."""

import jax.numpy as jnp


def count_spikes(v, threshold):
    return len(jnp.flatnonzero(v > threshold))


def main():
    drive = jnp.linspace(0.5, 1.5, 20)
    v = jnp.zeros(20)
    histogram = [0] * 21
    total = 0
    for _ in range(15):
        v = 0.9 * v + 0.2 * drive
        n = count_spikes(v, 1.0)
        v = jnp.where(v > 1.0, 0.0, v)
        histogram[n] += 1
        total += n
    return total, histogram
