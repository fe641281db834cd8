"""Minibatches gathered from a NumPy table with host index arrays; the last index array
runs past the table, and the loop skips a batch NumPy refuses. Trap for AO301's sliced
form: a JAX array clamps an index out of range instead of raising, so taking the rows on
the device would train on a batch of repeated last rows."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(w, x):
    return w + 0.1 * x.mean(axis=0)


def main():
    table = np.arange(40.0).reshape(10, 4)
    batches = np.arange(12).reshape(3, 4)  # the last one holds 8, 9, 10, 11
    w = jnp.zeros(4)
    skipped = 0
    for b in range(3):
        idx = batches[b]
        try:
            rows = jnp.asarray(table[idx])
        except IndexError:
            skipped += 1
            continue
        w = step(w, rows)
    return w, skipped
