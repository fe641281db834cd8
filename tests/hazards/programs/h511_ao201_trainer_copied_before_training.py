"""A shallow copy of a trainer made before training (`copy.copy(trainer)`) shares its
`.state`. Trap for AO201's proof on trainer instances: an instance used other than
through its attributes must come after its last step; here `fit` donates the buffer the
copy still holds, read after training."""

import copy

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    new = state - 0.1 * (state - batch)
    return new, jnp.sum((new - batch) ** 2)


class Trainer:
    def __init__(self):
        self.state = jnp.ones(4)

    def fit(self, batches):
        for batch in batches:
            self.state, _ = train_step(self.state, batch)


def main():
    trainer = Trainer()
    before = copy.copy(trainer)
    trainer.fit([jnp.full(4, 2.0 + i) for i in range(5)])
    return before.state * 1.0, trainer.state * 1.0
