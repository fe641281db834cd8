"""The update after an evaluation block hands each float64 NumPy batch to a helper that
does NumPy math on it before JAX sees it. Trap for AO103's step after a block: a jitted
step would receive the batch as float32 and the helper's NumPy math would run on a
traced value (or in float32), changing the results."""

import jax.numpy as jnp
import numpy as np


def batches():
    rng = np.random.default_rng(0)
    while True:
        yield rng.normal(size=(8, 3)) * 1e3


def centred(w, batch):
    return w - 1e-6 * jnp.asarray(batch - np.mean(batch, axis=0)).sum(axis=0)


def main():
    train = batches()
    w = jnp.ones(3)
    for step in range(6):
        if step % 3 == 0:
            print(step, round(float(jnp.sum(w)), 4))
        w = centred(w, next(train))
        w = w * 0.99
    return w
