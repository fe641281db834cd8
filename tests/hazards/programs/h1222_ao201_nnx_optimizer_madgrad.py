"""nnx training with `nnx.Optimizer(model, optax.contrib.madgrad(...))`; madgrad's
`init` keeps the initial parameters (its `x0`) in the optimizer state: the model's own
arrays. Trap for AO201: donating the model and the optimizer to `nnx.jit` donates
those buffers twice."""

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(1))
    optimizer = nnx.Optimizer(model, optax.contrib.madgrad(0.05), wrt=nnx.Param)
    x = jnp.array([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    y = jnp.array([[1.0], [2.0], [0.0]])
    for _ in range(5):
        loss = train_step(model, optimizer, x, y)
    return loss, model.kernel[...]
