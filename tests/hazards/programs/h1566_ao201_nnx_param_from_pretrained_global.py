"""nnx model whose kernel is `nnx.Param(jnp.asarray(PRETRAINED))`, a module global."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx

PRETRAINED = jnp.array([[0.5], [-0.25], [1.0]])


class Probe(nnx.Module):
    def __init__(self, kernel):
        self.kernel = nnx.Param(jnp.asarray(kernel))
        self.bias = nnx.Param(jnp.zeros((1,)))

    def __call__(self, x):
        return x @ self.kernel.value + self.bias.value


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x)[:, 0] - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = Probe(PRETRAINED)
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(0), (10, 3))
    y = x[:, 0] - x[:, 1]
    for _ in range(4):
        loss = train_step(model, optimizer, x, y)
    return loss, PRETRAINED.sum()
