"""nnx: a bare `nnx.Linear` trained by an `nnx.jit` step; an evaluation helper called
every 2 steps stores the kernel array (`model.kernel.value`) in a metrics dict read after
training. Trap for AO201: donating `model` deletes the kernel the dict holds."""

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


def evaluate(model, x, metrics):
    metrics["kernel"] = model.kernel.value
    metrics["out"] = jnp.sum(model(x))


def main():
    model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.ones((4, 3))
    y = jnp.zeros((4, 2))
    metrics = {}
    for step in range(6):
        loss = train_step(model, optimizer, x, y)
        if step % 2 == 0:
            evaluate(model, x, metrics)
    return loss, metrics["kernel"], metrics["out"]
