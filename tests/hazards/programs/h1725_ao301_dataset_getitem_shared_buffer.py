"""A map-style dataset whose `__getitem__` decodes sample `i` into one shared float64
buffer and returns a label; the loop reads `ds[i]` for the label and transfers the
buffer, bound before the loop.
"""

import jax
import jax.numpy as jnp
import numpy as np


class Dataset:
    def __init__(self, n):
        self.n = n
        self.buffer = np.zeros(3, dtype=np.float64)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        self.buffer[:] = np.arange(3, dtype=np.float64) + 10.0 * i
        return i % 2


@jax.jit
def loss(x, label):
    return jnp.mean((jnp.tanh(x / 10.0) - label) ** 2)


def main():
    ds = Dataset(4)
    x = ds.buffer
    out = []
    for i in range(len(ds)):
        label = ds[i]
        out.append(loss(jnp.asarray(x), label))
    return jnp.stack(out)
