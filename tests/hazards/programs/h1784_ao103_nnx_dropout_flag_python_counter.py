"""nnx: a model with a Python int `self.seen` that switches its behaviour after 4 calls
(a warmup done in Python, `if self.seen < 4:`), trained with `nnx.jit` and an eval every
2 steps. Trap for AO103 (nnx whole loop): every step retraces with the new int, so the
branch flips at the fifth call; tracing the step once in a compiled loop keeps the warmup
branch for every step."""

import jax.numpy as jnp
import optax
from flax import nnx


class Warm(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 1, rngs=rngs)
        self.seen = 0

    def __call__(self, x):
        self.seen += 1
        scale = 0.1 if self.seen < 4 else 1.0
        return scale * self.lin(x)


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    grads = nnx.grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)


def main():
    model = Warm(nnx.Rngs(3))
    optimizer = nnx.Optimizer(model, optax.sgd(0.3), wrt=nnx.Param)
    x = jnp.arange(12.0).reshape(4, 3) / 10.0
    y = jnp.full((4, 1), 2.0)
    evals = []
    for i in range(8):
        train_step(model, optimizer, x, y)
        if i % 2 == 0:
            evals.append(model.lin.bias.value)
    return evals, model.seen
