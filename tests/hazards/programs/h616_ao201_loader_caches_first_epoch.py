"""A data loader that moves its batches to the device once: the first epoch stacks each
batch and caches it in a list, later epochs yield the cached arrays again. Trap for
AO201: from the second epoch the batches are not new buffers; an `eqx.filter_jit` step
donating every argument deletes a cached batch, which the next epoch yields again."""

import equinox as eqx
import jax.numpy as jnp
import numpy as np


class DeviceLoader:
    def __init__(self, data, batch_size):
        self.data = data
        self.batch_size = batch_size
        self.cache = []

    def __iter__(self):
        if self.cache:
            yield from self.cache
            return
        for start in range(0, len(self.data), self.batch_size):
            batch = jnp.asarray(self.data[start : start + self.batch_size])
            self.cache.append(batch)
            yield batch


@eqx.filter_jit
def step(w, batch):
    grad = jnp.mean(batch, axis=0) - w
    return w + 0.5 * grad, jnp.sum(grad**2)


def main():
    data = np.arange(24, dtype=np.float32).reshape(8, 3) / 10.0
    loader = DeviceLoader(data, 4)
    w = jnp.zeros(3)
    for epoch in range(3):
        for batch in loader:
            w, gap = step(w, batch)
        print(epoch, round(float(gap), 6))
    return w
