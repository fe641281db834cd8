"""Trainer logs the norm of `self.init_params` at the start of every `train_model`; called twice."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(4)(x)))[:, 0]


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self):
        model = Net()
        self.init_params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))["params"]
        self.state = train_state.TrainState.create(
            apply_fn=model.apply, params=self.init_params, tx=optax.sgd(0.05)
        )

    def init_norm(self):
        return sum(float(jnp.sum(p**2)) for p in jax.tree.leaves(self.init_params))

    def train_model(self, x, y, steps):
        print(f"init norm {self.init_norm():.5f}")
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (8, 2))
    y = x[:, 0] * x[:, 1]
    trainer = Trainer()
    a = trainer.train_model(x, y, 3)
    b = trainer.train_model(x, y, 3)
    return a, b
