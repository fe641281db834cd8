"""A trainer whose `loss_average` property reads the history list; the training loop
appends `float(loss)` and prints the property every 3 steps."""

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self):
        self.history = []

    @property
    def loss_average(self):
        return sum(self.history) / max(len(self.history), 1)


@jax.jit
def step(w):
    return w * 0.7, jnp.mean(w**2)


def main():
    trainer = Trainer()
    history = trainer.history
    w = jnp.array([1.0, -2.0, 3.0])
    for t in range(9):
        w, loss = step(w)
        history.append(float(loss))
        if t % 3 == 2:
            print("average", round(trainer.loss_average, 5))
    return history
