"""Sample times as seconds since the start, from absolute timestamps in Python floats."""

import jax.numpy as jnp

T0 = 1_700_000_000.0


def relative_times():
    times = jnp.zeros((10,))
    for i in range(10):
        times = times.at[i].set((T0 + i * 0.37) - T0)
    return times


def main():
    return relative_times()
