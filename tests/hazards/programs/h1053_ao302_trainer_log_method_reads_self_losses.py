"""A trainer collects `float(loss)` in `self.losses` and every fourth step calls
`self.log()`, a method that prints the mean of the last four. Trap for AO302: the read
at the interval is inside a method, through `self`; a deferred conversion would leave
`self.losses` short when `log` runs."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.2 * g, loss


class Trainer:
    def __init__(self):
        self.w = jnp.zeros(2)
        self.losses = []

    def log(self):
        recent = self.losses[-4:]
        print(f"{len(self.losses)} steps, mean {sum(recent) / len(recent):.6f}")

    def fit(self, x, y, steps):
        for i in range(steps):
            self.w, loss = train_step(self.w, x, y)
            self.losses.append(float(loss))
            if i % 4 == 3:
                self.log()


def main():
    trainer = Trainer()
    x = jnp.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    trainer.fit(x, jnp.array([1.0, 3.0, 4.0]), 12)
    return trainer.w, trainer.losses
