"""A trainer whose `state` is a property with a setter that records every assigned
state in `self.history`. Nothing returns `self.state`; the caller reads only the
history after training. Trap for AO201: `self.state = train_step(self.state, x)` runs
the setter, which keeps each state the next step would donate."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    return w + 0.5 * (x - w)


class Trainer:
    def __init__(self, w):
        self.history = []
        self._w = w

    @property
    def state(self):
        return self._w

    @state.setter
    def state(self, value):
        self.history.append(value)
        self._w = value

    def fit(self, xs):
        for x in xs:
            self.state = train_step(self.state, x)


def main():
    trainer = Trainer(jnp.zeros(2))
    trainer.fit([jnp.array([1.0, 2.0]) * k for k in range(5)])
    return trainer.history
