"""Trainer with a TrainState whose optimizer is `optax.contrib.prodigy` in a chain."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(4)(x)))[:, 0]


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self):
        model = Net()
        params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))["params"]
        tx = optax.chain(optax.clip_by_global_norm(1.0), optax.contrib.prodigy(learning_rate=0.5))
        self.state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)

    def train_model(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (16, 2))
    y = jnp.sin(x[:, 0]) * x[:, 1]
    trainer = Trainer()
    return trainer.train_model(x, y, 6)
