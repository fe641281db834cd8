"""A (2, 4) host grid written through a flat view made before the loop with
`grid.reshape(-1)` (a view, not a copy); the grid is transferred each step."""

import jax.numpy as jnp
import numpy as np


def main():
    grid = np.zeros((2, 4))
    cells = grid.reshape(-1)
    sums = []
    for t in range(8):
        cells[t] = 0.5 * t
        sums.append(jnp.asarray(grid).sum(axis=1))
    return jnp.stack(sums)
