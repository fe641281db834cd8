"""plain jax: a cellular update writes one cell per iteration (`grid =
grid.at[i, j].add(1.0)`) and a bookkeeping helper stores the grid in a dict every 2
iterations (`snapshots[k] = grid`). Trap for AO401: a donating in-place helper deletes
the grids the dict holds."""

import jax.numpy as jnp


def remember(snapshots, k, grid):
    snapshots[k] = grid


def main():
    grid = jnp.zeros((3, 3))
    snapshots = {}
    cells = [(0, 0), (1, 1), (2, 2), (0, 2), (2, 0)]
    for k, (i, j) in enumerate(cells):
        grid = grid.at[i, j].add(1.0)
        if k % 2 == 0:
            remember(snapshots, k, grid)
    return grid, [jnp.sum(g) for g in snapshots.values()]
