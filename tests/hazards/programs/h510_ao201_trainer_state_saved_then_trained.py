"""A trainer's state read from outside the class and kept (`saved = trainer.state`),
then trained again. Trap for AO201's proof that an outside read of a trainer's attribute
is harmless: it holds only where no step can run on that instance afterwards; here the
second `fit` donates the buffer `saved` still holds, read at the end."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    new = state - 0.1 * (state - batch)
    return new, jnp.sum((new - batch) ** 2)


class Trainer:
    def __init__(self):
        self.state = jnp.zeros(4)

    def fit(self, batches):
        for batch in batches:
            self.state, _ = train_step(self.state, batch)


def main():
    trainer = Trainer()
    batches = [jnp.full(4, 1.0 + (i % 3)) for i in range(6)]
    trainer.fit(batches)
    saved = trainer.state
    trainer.fit(batches)
    return saved * 1.0, trainer.state * 1.0
