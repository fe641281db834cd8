"""Trainer's attributes dumped with `vars(trainer)` after training; `init_params` among them."""

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
        model = Net()
        self.init_params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))["params"]
        self.state = train_state.TrainState.create(
            apply_fn=model.apply, params=self.init_params, tx=optax.sgd(0.1)
        )

    def train_model(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (8, 3))
    y = x.sum(axis=1)
    trainer = Trainer()
    loss = trainer.train_model(x, y, 4)
    dump = {k: v for k, v in vars(trainer).items() if k.endswith("params")}
    return loss, jax.tree.map(jnp.sum, dump)
