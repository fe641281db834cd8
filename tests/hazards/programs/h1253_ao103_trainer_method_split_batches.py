"""A trainer class that keeps `self.batches = jnp.array_split(self.data, 3)` (ragged:
4, 4, 3 rows) and runs an eager epoch in a method with the update inline. Trap for
AO103: the batches are a list; indexing it with a traced index in a compiled step
fails."""

import jax.numpy as jnp


class Trainer:
    def __init__(self, data):
        self.data = data
        self.batches = jnp.array_split(data, 3)

    def epoch(self, w):
        for i in range(len(self.batches)):
            xb = self.batches[i]
            w = w + 0.3 * (xb.mean(axis=0) - w)
            w = w * 0.98
        return w


def main():
    trainer = Trainer(jnp.arange(22.0).reshape(11, 2) / 11.0)
    w = jnp.zeros(2)
    for _ in range(2):
        w = trainer.epoch(w)
    return w
