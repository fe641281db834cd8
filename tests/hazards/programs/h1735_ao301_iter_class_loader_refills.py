"""A loader class whose `__next__` refills `loader.batch` in place; the loop iterates the
loader by index and transfers `batch`, bound before the loop.
"""

import jax
import jax.numpy as jnp
import numpy as np


class Loader:
    def __init__(self, n):
        self.n = n
        self.batch = np.zeros(3, dtype=np.float64)
        self.i = 0

    def __iter__(self):
        self.i = 0
        return self

    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.batch[:] = np.array([self.i, self.i + 0.5, -self.i], dtype=np.float64)
        self.i += 1
        return self.i


@jax.jit
def f(x):
    return jnp.sum(jnp.exp(-x * x))


def main():
    loader = Loader(4)
    batch = loader.batch
    vals = []
    for _ in loader:
        vals.append(f(jnp.asarray(batch)))
    return jnp.stack(vals)
