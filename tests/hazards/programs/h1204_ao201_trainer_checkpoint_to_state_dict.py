"""A trainer that keeps its best checkpoint in memory as
`serialization.to_state_dict(self.state)` and restores it after training with
`from_state_dict`. `to_state_dict` returns the state's own arrays, not copies. Trap for
AO201: donating `self.state` deletes the arrays the in-memory checkpoint holds."""

import jax
import jax.numpy as jnp
import optax
from flax import serialization
from flax.training import train_state


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((x @ p["w"] - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self):
        params = {"w": jnp.array([[0.5], [-0.5]])}
        self.state = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.3))
        self.best_loss = float("inf")
        self.best = None

    def fit(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
            if float(loss) < self.best_loss:
                self.best_loss = float(loss)
                self.best = serialization.to_state_dict(self.state)

    def restore_best(self):
        self.state = serialization.from_state_dict(self.state, self.best)


def main():
    x = jnp.array([[1.0, 2.0], [2.0, 1.0], [0.0, 1.0]])
    y = jnp.array([[1.0], [0.0], [2.0]])
    trainer = Trainer()
    trainer.fit(x, y, 6)
    trainer.restore_best()
    return trainer.state.params["w"], trainer.state.step, trainer.best_loss
