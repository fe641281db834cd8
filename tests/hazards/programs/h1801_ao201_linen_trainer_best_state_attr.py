"""flax linen: a trainer class that keeps `self.best_state = self.state` whenever the
evaluation loss improves, and evaluates the best state after training. Trap for AO201:
donating `self.state` at the next step deletes the arrays `best_state` holds."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class Net(nn.Module):
    features: int = 2

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.features)(x)


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


@jax.jit
def eval_loss(state, x, y):
    return jnp.mean((state.apply_fn({"params": state.params}, x) - y) ** 2)


class Trainer:
    def __init__(self, x):
        net = Net()
        params = net.init(jax.random.PRNGKey(1), x)["params"]
        self.state = train_state.TrainState.create(
            apply_fn=net.apply, params=params, tx=optax.sgd(0.3)
        )
        self.best_state = self.state
        self.best = float("inf")

    def fit(self, x, y, epochs):
        for _ in range(epochs):
            self.state, _ = train_step(self.state, x, y)
            val = float(eval_loss(self.state, x * 0.5, y))
            if val < self.best:
                self.best = val
                self.best_state = self.state


def main():
    x = jnp.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
    y = jnp.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    trainer = Trainer(x)
    trainer.fit(x, y, 5)
    return trainer.best, eval_loss(trainer.best_state, x, y)
