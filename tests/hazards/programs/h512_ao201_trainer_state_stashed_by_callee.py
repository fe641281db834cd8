"""A trainer's state handed, between two rounds of training, to a function that keeps it
on a module list (`keep(trainer.state)`). Trap for AO201's proof that an outside read is
harmless: the value survives in `KEPT` into the second round, whose first step donates
it; the list is read at the end."""

import jax
import jax.numpy as jnp

KEPT = []


@jax.jit
def train_step(state, batch):
    new = state * 0.9 + 0.1 * batch
    return new, jnp.sum(new)


class Trainer:
    def __init__(self):
        self.state = jnp.arange(4.0)

    def fit(self, batches):
        for batch in batches:
            self.state, _ = train_step(self.state, batch)


def keep(state):
    KEPT.append(state)


def main():
    trainer = Trainer()
    batches = [jnp.full(4, float(i)) for i in range(4)]
    trainer.fit(batches)
    keep(trainer.state)
    trainer.fit(batches)
    return KEPT[0] * 1.0, trainer.state * 1.0
