"""A running normaliser object: `norm.apply(x)` returns `(x - self.mean) / self.std`,
and `norm.update(x)` changes `self.mean` and `self.std` on the host between calls.
Trap for AO101: jitting `apply` with `self` static hashes the object by identity; the
cached trace keeps the first statistics."""

import jax.numpy as jnp


class RunningNorm:
    def __init__(self, dim):
        self.mean = jnp.zeros(dim)
        self.std = jnp.ones(dim)
        self.count = 0

    def update(self, x):
        self.count += 1
        self.mean = self.mean + (x - self.mean) / self.count
        self.std = 1.0 + jnp.abs(x - self.mean)

    def apply(self, x):
        return (x - self.mean) / self.std


def main():
    norm = RunningNorm(2)
    outs = []
    for t in range(5):
        x = jnp.array([t, 2.0 * t])
        norm.update(x)
        outs.append(norm.apply(x * 1.5))
    return jnp.stack(outs)
