"""nnx self-distillation: `teacher = nnx.clone(model)` before fine-tuning, read after
to measure how far the student moved. `nnx.clone` makes new Variables that hold the
same arrays. Trap for AO201: donating the model to `nnx.jit` deletes the arrays the
teacher holds."""

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


def main():
    model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    teacher = nnx.clone(model)
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.arange(15.0).reshape(5, 3) / 15.0
    y = jnp.ones((5, 2))
    for _ in range(4):
        loss = train_step(model, optimizer, x, y)
    gap = jnp.mean((model(x) - teacher(x)) ** 2)
    return loss, gap
