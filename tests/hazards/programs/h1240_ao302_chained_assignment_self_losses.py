"""A trainer method sets `self.losses = losses = []` in one statement and appends
`loss.item()` to the local name. Trap for AO302: the list is also the attribute; a
rewrite that keeps device values in the list and rebinds `losses` to the converted list
after the loop leaves `self.losses` holding device arrays (or the wrong list)."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * g, loss


class Trainer:
    def __init__(self):
        self.w = jnp.zeros(2)
        self.losses = None

    def fit(self, x, y, steps):
        w = self.w
        self.losses = losses = []
        for _ in range(steps):
            w, loss = train_step(w, x, y)
            losses.append(loss.item())
        self.w = w
        return len(losses)


def main():
    trainer = Trainer()
    x = jnp.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    n = trainer.fit(x, jnp.array([1.0, 2.0, 1.5]), 6)
    return n, trainer.losses, [type(v).__name__ for v in trainer.losses]
