"""nnx: the model exposes `initial_kernel`, a `functools.cached_property` meant as the
anchor of a drift metric: the first read, after step 0, caches the head's kernel array
in the instance; every later step reports the drift from it with a fresh probe
(`model(probe)` as well). Trap for AO201 (`donate_argnames` on the `nnx.jit` step):
donating `model` at the next step deletes the cached kernel, which the drift reads."""

import functools

import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(2, 4, rngs=rngs)
        self.head = nnx.Linear(4, 1, rngs=rngs)

    def __call__(self, x):
        return self.head(nnx.relu(self.hidden(x)))

    @functools.cached_property
    def initial_kernel(self):
        return self.head.kernel[...]


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    x = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    y = jnp.array([[2.0], [-1.0]])
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    drift = []
    for _ in range(4):
        train_step(model, optimizer, x, y)
        change = jnp.sum(jnp.abs(model.head.kernel[...] - model.initial_kernel))
        drift.append(float(change + 0.0 * jnp.sum(model(jnp.ones((1, 2))))))
    return drift
