"""A loader class whose `__iter__` shuffles its NumPy arrays in place at the start of
every epoch and then yields nothing but step indices; the loop transfers the first rows
of `loader.x`. Trap for AO301: the iteration itself rewrites the array; a transfer
hoisted before the loop keeps the first epoch's order."""

import jax
import jax.numpy as jnp
import numpy as np


class Loader:
    def __init__(self, x, steps, seed):
        self.x = x
        self.steps = steps
        self.rng = np.random.default_rng(seed)

    def __iter__(self):
        self.rng.shuffle(self.x)
        return iter(range(self.steps))


@jax.jit
def step(w, xb):
    return 0.9 * w + 0.1 * jnp.mean(xb, axis=0)


def main():
    x = np.arange(24, dtype=np.float64).reshape(8, 3)
    loader = Loader(x, 3, seed=5)
    w = jnp.zeros(3)
    trace = []
    for _ in range(2):
        for _ in loader:
            w = step(w, jnp.asarray(x[:4]))
            trace.append(w[0])
    return w, jnp.stack(trace)
