"""A base `Trainer` whose `on_step_end` hook does nothing; the subclass actually used,
`SnapshotTrainer`, overrides it to keep `self.state` every other step. Trap for AO201:
the base class alone keeps no reference, but the instance is a subclass whose hook
keeps the state that the next step would donate."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, x):
    return state - 0.5 * (state - x)


class Trainer:
    def __init__(self, dim):
        self.state = jnp.zeros(dim)
        self.step = 0

    def on_step_end(self):
        pass

    def fit(self, xs):
        for x in xs:
            self.state = train_step(self.state, x)
            self.step += 1
            self.on_step_end()
        return self.state


class SnapshotTrainer(Trainer):
    def __init__(self, dim):
        super().__init__(dim)
        self.snapshots = []

    def on_step_end(self):
        if self.step % 2 == 0:
            self.snapshots.append(self.state)


def main():
    trainer = SnapshotTrainer(3)
    final = trainer.fit([jnp.full(3, float(k)) for k in range(6)])
    return final, trainer.snapshots
