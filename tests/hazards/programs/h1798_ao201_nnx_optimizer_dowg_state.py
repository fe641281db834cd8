"""nnx: `nnx.Optimizer` over `optax.contrib.dowg`, whose state keeps the initial
parameter arrays; the `nnx.jit` step takes the model and the optimizer. Trap for
AO201: donating `model` and `optimizer` donates the same buffers twice (the model's
kernel and the state's copy of it) at the first step."""

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
    model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.contrib.dowg(), wrt=nnx.Param)
    x = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = jnp.array([[1.0], [2.0], [3.0]])
    for _ in range(3):
        loss = train_step(model, optimizer, x, y)
    return loss, model.kernel.value
