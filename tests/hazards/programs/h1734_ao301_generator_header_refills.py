"""The loop's iterator is a generator that refills the shared float64 batch buffer
before yielding each index: the loop header changes the buffer the body transfers.
"""

import jax
import jax.numpy as jnp
import numpy as np

DATA = np.arange(20, dtype=np.float64).reshape(5, 4) / 10.0


def stream(buf):
    for i in range(DATA.shape[0]):
        buf[:] = DATA[i]
        yield i


@jax.jit
def score(x):
    return jnp.tanh(x).sum()


def main():
    buf = np.zeros(4, dtype=np.float64)
    scores = []
    for _ in stream(buf):
        scores.append(score(jnp.asarray(buf)))
    return jnp.stack(scores)
