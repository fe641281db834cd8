"""nnx model keeps its reference data in an `nnx.Variable`; the same array is the batch."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Whitener(nnx.Module):
    def __init__(self, data, rngs):
        self.reference = nnx.Variable(data)
        self.proj = nnx.Linear(data.shape[1], 1, rngs=rngs)

    def __call__(self, x):
        mu = self.reference.value.mean(axis=0)
        return self.proj(x - mu)[:, 0]


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    xs = jax.random.normal(jax.random.PRNGKey(2), (12, 3)) + 1.0
    ys = xs @ jnp.array([1.0, 0.0, -1.0])
    model = Whitener(xs, nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.05), wrt=nnx.Param)
    for _ in range(5):
        loss = train_step(model, optimizer, xs, ys)
    return loss
