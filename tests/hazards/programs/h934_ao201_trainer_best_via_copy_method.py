"""A trainer that remembers its best weights with `self.best = self.snapshot()`, where
`snapshot()` returns `jax.tree.map(lambda a: a, self.state)`, an identity map that its
author took for a copy. Trap for AO201: `self.best` holds the state's own buffers;
donating `self.state` at the next step deletes them."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, x):
    w = state["w"] - 0.3 * (state["w"] - x)
    return {"w": w, "loss": jnp.sum((w - x) ** 2)}


class Trainer:
    def __init__(self):
        self.state = {"w": jnp.zeros(2), "loss": jnp.array(jnp.inf)}
        self.best = None
        self.best_loss = float("inf")

    def snapshot(self):
        return jax.tree.map(lambda a: a, self.state)

    def fit(self, xs):
        for x in xs:
            self.state = train_step(self.state, x)
            loss = float(self.state["loss"])
            if loss < self.best_loss:
                self.best_loss = loss
                self.best = self.snapshot()


def main():
    trainer = Trainer()
    trainer.fit([jnp.array([1.0, 1.0]), jnp.array([1.0, 1.0]), jnp.array([5.0, -5.0])])
    return trainer.best, trainer.best_loss
