"""plain jax + NumPy: a `Pruner` object holds a NumPy mask that its `tighten()` method
refills in place every 2 steps; the loop transfers `jnp.asarray(pruner.mask)` each
iteration and passes it to a jitted step. Trap for AO301: the mask changes in the loop
through a method call; hoisting the transfer freezes the first mask."""

import jax
import jax.numpy as jnp
import numpy as np


class Pruner:
    def __init__(self, n):
        self.mask = np.ones(n, dtype=np.float64)
        self.k = 0

    def tighten(self):
        self.mask[self.k] = 0.0
        self.k += 1


@jax.jit
def step(w, mask):
    return (w - 0.1 * w) * mask


def main():
    pruner = Pruner(4)
    w = jnp.arange(1.0, 5.0)
    for i in range(6):
        w = step(w, jnp.asarray(pruner.mask))
        if i % 2 == 1:
            pruner.tighten()
    return w
