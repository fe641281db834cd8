"""flax nnx training loop written eagerly: `nnx.Optimizer.update` changes the model's
parameters in place; the loop body is the usual grad + update."""

import jax.numpy as jnp
import optax
from flax import nnx


class Regressor(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


def main():
    model = Regressor(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    y = x.sum(axis=1, keepdims=True)
    for _ in range(10):
        loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
        optimizer.update(model, grads)
    return model.linear.kernel.value, loss
