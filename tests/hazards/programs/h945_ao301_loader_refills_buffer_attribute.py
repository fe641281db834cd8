"""A host loader object that refills its `self.buf` in place (`self.buf[:] = ...`) on
`advance()`; the training loop binds `buf = loader.buf` before the loop and transfers
`jnp.asarray(buf)` each step. Trap for AO301: the name is invariant, the array is not:
a method of another object writes into it. Float64 host data."""

import jax.numpy as jnp
import numpy as np


class StreamingLoader:
    def __init__(self, n):
        self.buf = np.zeros(n, dtype=np.float64)
        self.t = 0

    def advance(self):
        self.t += 1
        self.buf[:] = np.sin(np.arange(self.buf.size) + self.t)


def main():
    loader = StreamingLoader(4)
    buf = loader.buf
    acc = jnp.zeros(4)
    for _ in range(5):
        loader.advance()
        acc = acc + jnp.asarray(buf) ** 2
    return acc
