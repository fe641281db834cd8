"""A trainer that remembers its best state as `self.state.replace(step=...)`, which
reads like a copy but is a new record holding the same parameter arrays. Trap for
AO201: donating `self.state` deletes the arrays `self.best_state` holds."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((jnp.tanh(x @ p["w"]) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self, params):
        self.state = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(2.5))
        self.best_state = None
        self.best = float("inf")

    def train(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
            if float(loss) < self.best:
                self.best = float(loss)
                self.best_state = self.state.replace(step=self.state.step)
        return self.best_state


def main():
    x = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = jnp.array([[0.5], [-0.5], [0.2]])
    trainer = Trainer({"w": jnp.array([[0.3], [0.1]])})
    best = trainer.train(x, y, 8)
    return best.params["w"], best.step, trainer.best
