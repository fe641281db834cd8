"""nnx: a teacher made with `nnx.clone(model)` before training (clone splits and merges:
the teacher's variables hold the very arrays of the model); the `nnx.jit` step trains a
bare `nnx.Linear` and the teacher is evaluated after training. Trap for AO201: donating
`model` deletes the arrays the teacher holds."""

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    teacher = nnx.clone(model)
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.linspace(0.0, 1.0, 6).reshape(2, 3)
    y = jnp.ones((2, 2))
    for _ in range(3):
        loss = train_step(model, optimizer, x, y)
    return loss, jnp.sum(teacher(x))
