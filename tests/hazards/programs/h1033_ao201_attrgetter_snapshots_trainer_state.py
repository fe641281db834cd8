"""Logging code outside a trainer reads its state through
`operator.attrgetter("state")`, keeping a snapshot after every epoch. Trap for AO201:
`self.state = train_step(self.state, x)` looks replaced by every call, but the
snapshots hold earlier states that the next epoch's steps would donate."""

import operator

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, x):
    return state * 0.5 + x


class Trainer:
    def __init__(self):
        self.state = jnp.zeros(3)

    def epoch(self, xs):
        for x in xs:
            self.state = train_step(self.state, x)


get_state = operator.attrgetter("state")


def main():
    trainer = Trainer()
    snapshots = []
    for e in range(3):
        trainer.epoch([jnp.full(3, float(e + k)) for k in range(2)])
        snapshots.append(get_state(trainer))
    return snapshots
