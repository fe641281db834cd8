"""nnx: a model whose `__call__` counts its calls in a plain int attribute, trained by an
`nnx.jit` step in a counted loop with an evaluation every 3 steps. Trap for AO103 (nnx
whole loop): each step retraces (the int is part of the graph), so the counter grows by
one per step; one compiled loop traces the step once and the counter stops."""

import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 2, rngs=rngs)
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        return self.lin(x)


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


def main():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    y = jnp.ones((4, 2))
    evals = []
    for step in range(9):
        train_step(model, optimizer, x, y)
        if step % 3 == 0:
            evals.append((model.calls, loss_fn(model, x, y)))
    return evals, model.calls
