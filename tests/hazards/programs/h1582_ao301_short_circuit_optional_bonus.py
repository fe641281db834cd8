"""The bonus table is read only when bonuses are on (`use and ...`); with them off it
is a ragged list that cannot become an array.
"""

import jax.numpy as jnp


def rollout(xs, table, use):
    total = 0.0
    for x in xs:
        bonus = use and jnp.asarray(table).sum()
        total = total + x + bonus
    return total


def main():
    xs = [jnp.float32(1.0), jnp.float32(3.0)]
    return rollout(xs, [[1.0], [2.0, 3.0]], False), rollout(xs, [[1.0, 2.0]], True)
