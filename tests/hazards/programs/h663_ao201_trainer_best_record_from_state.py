"""Trainer class that keeps its best parameters as another TrainState made from the
current one: `self.best = TrainState.create(params=self.state.params, ...)` after an
improving epoch. Trap for AO201: `TrainState.create` holds the very buffers of
`self.state.params` in `self.best`; donating `self.state` at the next step deletes
them, and `self.best.params` is read when training ends."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, x):
    grads = jax.grad(lambda p: jnp.sum((x @ p["w"] - 1.0) ** 2))(state.params)
    return state.apply_gradients(grads=grads), jnp.sum((x @ state.params["w"] - 1.0) ** 2)


class Trainer:
    def __init__(self):
        self.state = train_state.TrainState.create(
            apply_fn=None, params={"w": jnp.zeros((3, 1))}, tx=optax.sgd(0.01)
        )
        self.best = None
        self.best_loss = float("inf")

    def train_model(self, xs):
        for x in xs:
            self.state, loss = train_step(self.state, x)
            if float(loss) < self.best_loss:
                self.best_loss = float(loss)
                self.best = train_state.TrainState.create(
                    apply_fn=None, params=self.state.params, tx=optax.sgd(0.01)
                )
        return self.best.params["w"] * 1.0


def main():
    xs = [jnp.ones((2, 3)) * (1.0 + (i % 3) * 0.5) for i in range(8)]
    return Trainer().train_model(xs)
