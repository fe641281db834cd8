"""`train_model` called twice; the caller keeps the first run's params to compare."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)[:, 0]


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self):
        self.model = Net()
        params = self.model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.1)
        )

    def train_model(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(2), (10, 3))
    y = x @ jnp.array([1.0, -1.0, 0.5])
    trainer = Trainer()
    first_loss = trainer.train_model(x, y, 5)
    after_first = trainer.state.params
    second_loss = trainer.train_model(x, y, 5)
    drift = jax.tree.map(lambda a, b: jnp.abs(a - b).sum(), trainer.state.params, after_first)
    return first_loss, second_loss, drift
