"""A module-level buffer updated in a function with `global`; another function reads it."""

import jax.numpy as jnp

COUNTS = jnp.zeros((4,))


def record(events):
    global COUNTS
    for e in events:
        COUNTS = COUNTS.at[e % 4].add(1.0)
    return COUNTS


def snapshot():
    return COUNTS * 1


def main():
    before = snapshot()
    after = record([1, 2, 2, 3, 7])
    return before, after, snapshot()
