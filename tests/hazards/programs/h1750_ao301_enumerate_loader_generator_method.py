"""A loader whose `__iter__` is a generator method refilling `self.buf` before each
yield; the loop `for i, _ in enumerate(loader)` transfers the buffer.
"""

import jax
import jax.numpy as jnp
import numpy as np


class RingLoader:
    def __init__(self, n):
        self.n = n
        self.buf = np.zeros(3, dtype=np.float64)

    def __iter__(self):
        for k in range(self.n):
            self.buf[:] = [k, 2.0 * k, 1.0 - k]
            yield k


@jax.jit
def score(x, i):
    return jnp.sum(x * x) + i


def main():
    loader = RingLoader(4)
    buf = loader.buf
    out = []
    for i, _ in enumerate(loader):
        out.append(score(jnp.asarray(buf), i))
    return jnp.stack(out)
