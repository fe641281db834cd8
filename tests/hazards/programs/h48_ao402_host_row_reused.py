"""Trajectory logging: every step writes the state into one reusable NumPy row
(`row[:] = ...`) and appends it to a growing device array with `jnp.concatenate`.
Trap for AO402: collected in a list and joined after the loop, every piece is a view
of the same host row, so all rows come out equal to the last one."""

import jax.numpy as jnp
import numpy as np


def main():
    row = np.zeros(3, np.float32)
    log = jnp.zeros((0, 3), jnp.float32)
    pos, vel = 0.0, 1.0
    for t in range(12):
        vel -= 0.1 * pos
        pos += 0.1 * vel
        row[:] = (t, pos, vel)
        log = jnp.concatenate([log, row[None]])
    return log
