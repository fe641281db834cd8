"""Trainer's log method keeps `self.state.params` for an end-of-run summary."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def apply_fn(params, x):
    return x @ params["w"] + params["b"]


def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((apply_fn(p, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self):
        self.state = train_state.TrainState.create(
            apply_fn=apply_fn, params={"w": jnp.ones((2,)), "b": jnp.zeros(())}, tx=optax.sgd(0.05)
        )
        self.train_step = jax.jit(train_step)
        self.logged = []

    def log(self, step, loss):
        if step % 3 == 0:
            self.logged.append((step, self.state.params["w"]))
            print(f"step {step} loss {float(loss):.4f}")

    def train_model(self, x, y, steps):
        for step in range(steps):
            self.state, loss = self.train_step(self.state, x, y)
            self.log(step, loss)


def main():
    x = jnp.arange(12.0).reshape(6, 2) / 6.0
    y = x.sum(axis=1) - 0.5
    trainer = Trainer()
    trainer.train_model(x, y, 8)
    return [(s, w) for s, w in trainer.logged]
