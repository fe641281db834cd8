"""Two fine-tuning trainers start from one module-level pretrained tree."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

PRETRAINED = {"w": jnp.array([0.5, -0.5, 0.25]), "b": jnp.array(0.1)}


def apply_fn(params, x):
    return x @ params["w"] + params["b"]


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((apply_fn(p, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class FineTuner:
    def __init__(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=apply_fn, params=PRETRAINED, tx=optax.sgd(lr)
        )

    def train_model(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(8), (10, 3))
    y = x[:, 0] - x[:, 2]
    losses = []
    for lr in (0.1, 0.05):
        losses.append(FineTuner(lr).train_model(x, y, 5))
    return losses, PRETRAINED["w"]
