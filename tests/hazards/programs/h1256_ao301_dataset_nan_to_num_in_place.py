"""A host dataset cleaned in place at every epoch with `np.nan_to_num(x, copy=False)`
after new readings (with NaNs) are written into a few rows; the batch transferred each
step is a slice. Trap for AO301: `nan_to_num(copy=False)` writes into the array, so the
transfer is not loop-invariant."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(w, xb):
    return 0.8 * w + 0.2 * xb.mean(axis=0)


def main():
    x = np.arange(12, dtype=np.float64).reshape(6, 2)
    w = jnp.zeros(2)
    for epoch in range(3):
        x[epoch] = [np.nan, epoch * 10.0]
        np.nan_to_num(x, copy=False, nan=-1.0)
        for start in range(0, 6, 4):
            w = step(w, jnp.asarray(x[start : start + 4]))
    return w
