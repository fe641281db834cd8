"""`while feeder:` asks the feeder's `__bool__`, which loads the next chunk into its
buffer and says whether there was one; the body transfers the buffer.
"""

import jax
import jax.numpy as jnp
import numpy as np


class Feeder:
    def __init__(self, chunks):
        self.chunks = chunks
        self.buf = np.zeros(2, dtype=np.float64)

    def __bool__(self):
        if not self.chunks:
            return False
        self.buf[:] = self.chunks.pop(0)
        return True


@jax.jit
def process(x):
    return jnp.sum(x) * 2.0 + jnp.prod(x)


def main():
    feeder = Feeder([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
    buf = feeder.buf
    out = []
    while feeder:
        out.append(process(jnp.asarray(buf)))
    return jnp.stack(out)
