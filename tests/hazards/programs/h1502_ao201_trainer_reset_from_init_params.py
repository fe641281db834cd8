"""Trainer rebuilds its state from `self.init_params` for a second run."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.gelu(nn.Dense(5)(x)))[:, 0]


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self):
        self.model = Regressor()
        self.init_params = self.model.init(jax.random.PRNGKey(7), jnp.ones((1, 2)))["params"]
        self.reset(0.1)

    def reset(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=self.init_params, tx=optax.sgd(lr)
        )

    def train_model(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss


def main():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(12, 2)
    y = x[:, 0] * 2.0 - x[:, 1]
    trainer = Trainer()
    results = {}
    for lr in (0.1, 0.02):
        trainer.reset(lr)
        results[lr] = trainer.train_model(x, y, 8)
    return results
