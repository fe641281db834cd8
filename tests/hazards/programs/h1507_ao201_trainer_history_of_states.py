"""Trainer records its state every epoch for a later plot of the weights."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def apply_fn(params, x):
    return x @ params["w"]


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((apply_fn(p, x) - y) ** 2)

    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads)


class Trainer:
    def __init__(self):
        self.state = train_state.TrainState.create(
            apply_fn=apply_fn, params={"w": jnp.zeros((3,))}, tx=optax.sgd(0.2)
        )
        self.history = []

    def on_epoch_end(self):
        self.history.append(self.state)

    def train_model(self, x, y, epochs, steps):
        for _ in range(epochs):
            for _ in range(steps):
                self.state = train_step(self.state, x, y)
            self.on_epoch_end()


def plot_weights(history):
    return [float(s.params["w"][0]) for s in history]


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (16, 3))
    y = x @ jnp.array([1.0, 2.0, -1.0])
    trainer = Trainer()
    trainer.train_model(x, y, 3, 4)
    return plot_weights(trainer.history)
