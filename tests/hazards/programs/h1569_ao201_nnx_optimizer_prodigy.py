"""nnx: `nnx.Optimizer(model, optax.contrib.prodigy(...))`, whose state keeps the initial params."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x)[:, 0] - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(5))
    optimizer = nnx.Optimizer(model, optax.contrib.prodigy(0.5), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(6), (10, 3))
    y = x[:, 2] * 2.0
    for _ in range(4):
        loss = train_step(model, optimizer, x, y)
    return loss
