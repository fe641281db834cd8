"""A trainer whose `state` is a property; its setter records every state assigned in
`self.history` (for plotting the trajectory). The training loop reads like any other:
`self.state = self.train_step(self.state, batch)`. Trap for AO201: the assignment runs
the setter, which keeps the value; donating `self.state` at the next step deletes it."""

import jax
import jax.numpy as jnp


def _train_step(w, batch):
    x, y = batch
    return w - 0.2 * jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)


class Trainer:
    def __init__(self, w):
        self.history = []
        self._state = w
        self.train_step = jax.jit(_train_step)

    @property
    def state(self):
        return self._state

    @state.setter
    def state(self, value):
        self.history.append(value)
        self._state = value

    def fit(self, batches):
        for batch in batches:
            self.state = self.train_step(self.state, batch)
        return self.state


def main():
    xs = jnp.linspace(-1.0, 1.0, 24).reshape(4, 3, 2)
    batches = [(x, x @ jnp.array([1.0, 0.5])) for x in xs]
    trainer = Trainer(jnp.zeros(2))
    final = trainer.fit(batches)
    return final, jnp.stack(trainer.history)
