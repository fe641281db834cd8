"""plain jax + NumPy: a `Trainer` holds its data in `self.data` (a NumPy array); the
loop reads `jnp.asarray(trainer.data)` every step, and `trainer.next_epoch()` (called
every 3 steps) rebinds the field to a shuffled copy. Trap for AO301: the transfer's
data changes through the object's field; a hoist before the loop keeps the first
epoch's data."""

import jax
import jax.numpy as jnp
import numpy as np


class Trainer:
    def __init__(self, data):
        self.data = data
        self.epoch = 0

    def next_epoch(self):
        self.epoch += 1
        self.data = np.roll(self.data, 1, axis=0)


@jax.jit
def fit_step(w, batch):
    return w + 0.1 * (batch[0] - w)


def main():
    trainer = Trainer(np.arange(12.0).reshape(4, 3))
    w = jnp.zeros(3)
    for step in range(7):
        w = fit_step(w, jnp.asarray(trainer.data))
        if step % 3 == 2:
            trainer.next_epoch()
    return w, trainer.epoch
