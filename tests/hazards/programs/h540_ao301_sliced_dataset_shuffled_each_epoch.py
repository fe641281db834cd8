"""Minibatch SGD on a NumPy dataset shuffled in place at the start of every epoch, each
batch sliced from it and converted. Trap for AO301's sliced form: the dataset may go to
the device once per epoch, after the shuffle; a copy made before the epoch loop would
train every epoch on the first order."""

import jax
import jax.numpy as jnp
import numpy as np

BATCH = 8


@jax.jit
def step(w, x, y):
    grad = x.T @ (x @ w - y) / BATCH
    return w - 0.1 * grad


def main():
    rng = np.random.default_rng(0)
    data = rng.normal(size=(32, 5))
    data[:, 4] = data[:, :4] @ np.array([1.0, -2.0, 0.5, 3.0])
    w = jnp.zeros(4)
    for _epoch in range(4):
        rng.shuffle(data)
        for i in range(4):
            batch = jnp.asarray(data[i * BATCH : (i + 1) * BATCH])
            w = step(w, batch[:, :4], batch[:, 4])
    return w
