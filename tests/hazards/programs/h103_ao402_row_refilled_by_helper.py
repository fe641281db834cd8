"""Trajectory logging: a helper writes the state into one reusable NumPy row with
`np.copyto(row, ...)`, and the loop appends the row to a growing device array with
`jnp.concatenate`. Trap for AO402: the row is changed in place by a call, not by the
loop's own statements; collected in a list and joined after the loop, every piece would
be a view of the same row, holding its last value."""

import jax.numpy as jnp
import numpy as np


def write_state(row, t, pos, vel):
    np.copyto(row, (t, pos, vel))


def main():
    row = np.zeros(3)
    log = jnp.zeros((0, 3))
    pos, vel = 0.0, 1.0
    for t in range(12):
        vel -= 0.1 * pos
        pos += 0.1 * vel
        write_state(row, t, pos, vel)
        log = jnp.concatenate([log, row[None]])
    return log
