"""The initial grid "copied" with `[:]` (a list habit) before the loop updates it."""

import jax.numpy as jnp


def deposit(n, hits):
    grid = jnp.zeros((n, n))
    initial = grid[:]
    for r, c in hits:
        grid = grid.at[r, c].add(1.0)
    return grid, initial


def main():
    grid, initial = deposit(4, [(0, 1), (2, 2), (3, 0), (0, 1)])
    return grid, initial, jnp.sum(grid - initial)
