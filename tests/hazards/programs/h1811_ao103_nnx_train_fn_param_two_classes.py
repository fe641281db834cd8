"""nnx: a `train(model, optimizer, x, y, steps)` function with an `nnx.jit` step and an
evaluation every 2 steps, called once with a bare `nnx.Linear` and once with a
`CountingLinear` whose `__call__` counts in a plain int. Trap for AO103 (nnx whole
loop): for the counting model each step retraces and counts; a compiled loop of the
steps traces the step once and the count differs."""

import jax.numpy as jnp
import optax
from flax import nnx


class CountingLinear(nnx.Module):
    def __init__(self, rngs):
        self.inner = nnx.Linear(2, 1, rngs=rngs)
        self.count = 0

    def __call__(self, x):
        self.count += 1
        return self.inner(x)


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def train(model, optimizer, x, y, steps):
    evals = []
    for step in range(steps):
        train_step(model, optimizer, x, y)
        if step % 2 == 0:
            evals.append(jnp.mean((model(x) - y) ** 2))
    return evals


def main():
    x = jnp.array([[1.0, 2.0], [2.0, 1.0], [0.0, 1.0]])
    y = jnp.array([[1.0], [0.0], [2.0]])
    plain = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
    counting = CountingLinear(nnx.Rngs(0))
    a = train(plain, nnx.Optimizer(plain, optax.sgd(0.1), wrt=nnx.Param), x, y, 6)
    b = train(counting, nnx.Optimizer(counting, optax.sgd(0.1), wrt=nnx.Param), x, y, 6)
    return a, b, counting.count
