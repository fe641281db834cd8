"""Trainer starts its EMA in `__init__` as the state's own params."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def apply_fn(params, x):
    return x @ params["w"] + params["b"]


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((apply_fn(p, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self, decay=0.9):
        params = {"w": jnp.full((3,), 0.1), "b": jnp.zeros(())}
        self.state = train_state.TrainState.create(
            apply_fn=apply_fn, params=params, tx=optax.sgd(0.1)
        )
        self.ema_params = self.state.params
        self.decay = decay

    def update_ema(self):
        d = self.decay
        self.ema_params = jax.tree.map(
            lambda e, p: d * e + (1 - d) * p, self.ema_params, self.state.params
        )

    def train_model(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
            self.update_ema()
        return loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(4), (12, 3))
    y = x @ jnp.array([0.3, -0.2, 0.8]) + 0.1
    trainer = Trainer()
    loss = trainer.train_model(x, y, 6)
    return loss, trainer.ema_params
