"""nnx: `graphdef, state0 = nnx.split(model)`; the model is reset with `nnx.merge` after
training.
"""

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
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(7))
    graphdef, state0 = nnx.split(model)
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(8), (8, 3))
    y = x[:, 0]
    for _ in range(4):
        loss = train_step(model, optimizer, x, y)
    fresh = nnx.merge(graphdef, state0)
    return loss, jnp.mean((fresh(x)[:, 0] - y) ** 2)
