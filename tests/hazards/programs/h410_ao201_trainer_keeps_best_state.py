"""Trainer class that keeps its best state in another attribute: `self.best =
self.state` after a step that improved the loss. Trap for AO201 on attribute targets:
donating `self.state` at the next step deletes the buffer `self.best` still holds,
read when training ends."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    new = state - 0.1 * (state - batch)
    return new, jnp.sum((new - batch) ** 2)


class Trainer:
    def __init__(self):
        self.state = jnp.zeros(4)
        self.best = None
        self.best_loss = float("inf")

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            if float(loss) < self.best_loss:
                self.best_loss = float(loss)
                self.best = self.state

    def result(self):
        return self.best * 1.0


def main():
    trainer = Trainer()
    trainer.fit([jnp.full(4, 1.0 + (i % 3)) for i in range(9)])
    return trainer.result()
