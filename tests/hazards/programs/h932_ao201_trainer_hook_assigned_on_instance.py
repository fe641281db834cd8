"""A trainer whose `fit` calls `self.callback(self)` after every step; the default
callback is a no-op method, but `main` replaces it on the instance with a function that
keeps `trainer.state` in a list. Trap for AO201: the class's own code keeps nothing; the
instance attribute set from outside does."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state * 0.5 + batch


class Trainer:
    def __init__(self):
        self.state = jnp.ones(2)
        self.callback = self.no_op

    def no_op(self, trainer):
        return None

    def fit(self, batches):
        for batch in batches:
            self.state = train_step(self.state, batch)
            self.callback(self)


def main():
    kept = []
    trainer = Trainer()
    trainer.callback = lambda t: kept.append(t.state)
    trainer.fit([jnp.array([1.0, 2.0]) * k for k in range(4)])
    return trainer.state, kept
