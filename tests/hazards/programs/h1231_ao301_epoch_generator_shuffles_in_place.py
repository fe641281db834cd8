"""An `epochs(data, n)` generator shuffles the host dataset in place before yielding
each epoch number; the loop body transfers the first batch of `data`. Trap for AO301:
the generator runs between iterations and rewrites `data`; hoisting the transfer of
`data[:BATCH]` keeps the order of the first epoch."""

import jax
import jax.numpy as jnp
import numpy as np

BATCH = 3


def epochs(data, n, seed=0):
    rng = np.random.default_rng(seed)
    for e in range(n):
        rng.shuffle(data)
        yield e


@jax.jit
def sgd(w, xb):
    return w - 0.1 * (w - xb.sum(0))


def main():
    data = np.linspace(0.0, 1.0, 18, dtype=np.float64).reshape(9, 2)
    w = jnp.zeros(2)
    for epoch in epochs(data, 4):  # noqa: B007
        xb = jnp.asarray(data[:BATCH])
        w = sgd(w, xb)
    return w
