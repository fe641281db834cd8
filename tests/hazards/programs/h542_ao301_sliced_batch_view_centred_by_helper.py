"""Each minibatch is centred in place by a helper before the jitted step sees it; the batch
is a NumPy view, so the helper writes the dataset itself. Trap for AO301's sliced form:
the dataset changes in the loop, through a view handed to a helper, and a copy made
before the loop would hold the uncentred rows."""

import jax
import numpy as np

BATCH = 4


def centre(batch):
    batch -= batch.mean(axis=0)


@jax.jit
def step(w, x):
    return w + (x**2).sum(axis=0)


def main():
    data = np.arange(48.0).reshape(12, 4) ** 1.5
    w = np.zeros(4)
    for i in range(3):
        centre(data[i * BATCH : (i + 1) * BATCH])
        w = step(w, data[i * BATCH : (i + 1) * BATCH])
    return w, data.sum()
