"""nnx: `nnx.state(model)` taken before training to measure the drift after."""

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
    model = nnx.Linear(4, 1, rngs=nnx.Rngs(3))
    start = nnx.state(model, nnx.Param)
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(4), (10, 4))
    y = x.sum(axis=1)
    for _ in range(6):
        loss = train_step(model, optimizer, x, y)
    drift = jnp.abs(model.kernel.value - start["kernel"].value).sum()
    return loss, drift
