"""Trainer builds an L2-to-init regularizer with `functools.partial(...,
anchor=self.init_params)`.
"""

import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)[:, 0]


def l2_to(params, anchor):
    return sum(
        jnp.sum((p - a) ** 2)
        for p, a in zip(jax.tree.leaves(params), jax.tree.leaves(anchor))  # noqa: B905
    )


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
        self.regularizer = functools.partial(l2_to, anchor=self.init_params)
        self.state = train_state.TrainState.create(
            apply_fn=model.apply, params=self.init_params, tx=optax.sgd(0.1)
        )

    def train_model(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss, self.regularizer(self.state.params)


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (8, 3))
    y = x @ jnp.array([1.0, 0.0, -1.0])
    return Trainer().train_model(x, y, 4)
