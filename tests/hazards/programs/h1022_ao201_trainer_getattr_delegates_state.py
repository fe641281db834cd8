"""A trainer forwards unknown attributes to its state with `__getattr__`, so
`trainer.w` is `trainer.state["w"]`. The script keeps `w0 = trainer.w` before training
to report the change. Trap for AO201: `w0` is a leaf of the state that
`self.state = step(self.state, batch)` would donate."""

import jax
import jax.numpy as jnp


@jax.jit
def step(state, batch):
    x, y = batch
    g = jax.grad(lambda s: jnp.mean((x @ s["w"] + s["b"] - y) ** 2))(state)
    return jax.tree.map(lambda p, d: p - 0.1 * d, state, g)


class Trainer:
    def __init__(self):
        self.state = {"w": jnp.array([0.2, 0.1, -0.1]), "b": jnp.array(0.0)}

    def __getattr__(self, name):
        return self.__dict__["state"][name]

    def train(self, batches):
        for batch in batches:
            self.state = step(self.state, batch)


def main():
    xs = jnp.linspace(-1.0, 1.0, 36).reshape(3, 4, 3)
    batches = [(x, x @ jnp.array([1.0, -1.0, 0.5]) + 0.2) for x in xs]
    trainer = Trainer()
    w0 = trainer.w
    trainer.train(batches)
    return trainer.w - w0, trainer.b
