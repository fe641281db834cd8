"""A trainer class handed on as a value (`def run(make=Trainer)`): its instances are made
where autoopt does not follow the name, and one is copied before the copy is trained.
Trap for AO201's closed-class premise: the class is used as a value, so a copy may share
`.state`; training the copy donates the buffer the original still holds, read after."""

import copy

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state + batch, jnp.sum(state)


@jax.jit
def score(state):
    return jnp.sum(state * state)


class Trainer:
    def __init__(self):
        self.state = jnp.ones(3)

    def fit(self, batches):
        for batch in batches:
            self.state, _ = train_step(self.state, batch)

    def total(self):
        return score(self.state)


def run(make=Trainer):
    trainer = make()
    twin = copy.copy(trainer)
    twin.fit([jnp.ones(3), jnp.ones(3)])
    return trainer.total(), twin.total()


def main():
    return run()
