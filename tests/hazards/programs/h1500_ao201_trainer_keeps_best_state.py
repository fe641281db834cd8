"""Trainer keeps the best TrainState seen so far for early stopping."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.tanh(nn.Dense(8)(x))
        return nn.Dense(1)(x)


def loss_fn(params, apply_fn, x, y):
    pred = apply_fn({"params": params}, x)
    return jnp.mean((pred[:, 0] - y) ** 2)


@jax.jit
def train_step(state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(state.params, state.apply_fn, x, y)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self, seed):
        self.model = MLP()
        x0 = jnp.ones((1, 3))
        params = self.model.init(jax.random.PRNGKey(seed), x0)["params"]
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.05)
        )
        self.best_state = None
        self.best_loss = float("inf")

    def train_model(self, x, y, epochs):
        for epoch in range(epochs):
            self.state, loss = train_step(self.state, x, y)
            if epoch % 3 == 0 and float(loss) < self.best_loss:
                self.best_loss = float(loss)
                self.best_state = self.state
        return self.best_loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (16, 3))
    y = jnp.sin(x.sum(axis=1))
    trainer = Trainer(0)
    best = trainer.train_model(x, y, 12)
    best_pred = trainer.best_state.apply_fn({"params": trainer.best_state.params}, x)
    return best, best_pred
