"""A host-side dataset sliced per step into device batches, with a ragged last batch;
between epochs `np.add.at` jitters some rows in place (augmentation). Trap for AO301:
`np.add.at` writes into `data`; hoisting the transfer of `data` before the loop keeps
the first epoch's values."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(w, xb):
    return w + 0.1 * jnp.mean(xb, axis=0) - 0.05 * w


def main():
    data = np.arange(30, dtype=np.float64).reshape(10, 3) / 10.0
    rows = np.array([0, 3, 3, 7])
    w = jnp.zeros(3)
    batch = 4
    for epoch in range(3):  # noqa: B007
        for start in range(0, data.shape[0], batch):
            xb = jnp.asarray(data[start : start + batch])
            w = step(w, xb)
        np.add.at(data, rows, 0.5)
    return w
