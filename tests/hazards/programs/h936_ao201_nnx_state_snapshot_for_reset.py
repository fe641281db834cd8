"""flax nnx: `initial = nnx.state(model, nnx.Param)` is taken before training so that the
model can be reset for a second run with `nnx.update(model, initial)`. Trap for AO201:
`nnx.state` returns the model's own arrays; donating `model` to the step deletes them,
and the reset reads them."""

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def run(model, x, y, lr):
    optimizer = nnx.Optimizer(model, optax.sgd(lr), wrt=nnx.Param)
    for _ in range(4):
        loss = train_step(model, optimizer, x, y)
    return loss


def main():
    model = nnx.Linear(2, 1, rngs=nnx.Rngs(1))
    initial = nnx.state(model, nnx.Param)
    x = jnp.array([[1.0, 2.0], [2.0, 1.0]])
    y = jnp.array([[1.0], [-1.0]])
    first = run(model, x, y, 0.05)
    nnx.update(model, initial)
    second = run(model, x, y, 0.1)
    return first, second
