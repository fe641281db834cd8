"""flax nnx: before training, `graphdef, init_state = nnx.split(model)` remembers the
untrained model; the training loop runs an `nnx.jit` step on `model` and `optimizer`;
after training `nnx.merge(graphdef, init_state)` rebuilds the untrained model to compare
losses. Trap for AO201: `init_state` holds the model's own arrays; donating `model`
deletes them."""

import jax.numpy as jnp
import optax
from flax import nnx


class Regressor(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def evaluate(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


def main():
    model = Regressor(nnx.Rngs(0))
    graphdef, init_state = nnx.split(model)
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    y = jnp.array([[1.0], [2.0], [0.5]])
    for _ in range(5):
        loss = train_step(model, optimizer, x, y)
    untrained = nnx.merge(graphdef, init_state)
    return loss, evaluate(untrained, x, y), evaluate(model, x, y)
