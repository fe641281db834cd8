"""nnx: a model whose `__call__` is wrapped by a Python decorator `counted` that bumps
`self.n_calls` (a plain int) before the forward pass; trained by an `nnx.jit` step with
an evaluation every 2 steps. Trap for AO103 (nnx whole loop): every step retraces on the
changed int and counts; a compiled loop cannot carry the changing graph."""

import functools

import jax.numpy as jnp
import optax
from flax import nnx


def counted(method):
    @functools.wraps(method)
    def wrapper(self, *args):
        self.n_calls += 1
        return method(self, *args)

    return wrapper


class Net(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(2, 1, rngs=rngs)
        self.n_calls = 0

    @counted
    def __call__(self, x):
        return self.lin(x)


@nnx.jit
def train_step(model, optimizer, x, y):
    grads = nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)


def main():
    model = Net(nnx.Rngs(2))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    y = jnp.array([[1.0], [-1.0]])
    marks = []
    for i in range(6):
        train_step(model, optimizer, x, y)
        if i % 2 == 0:
            marks.append((model.n_calls, model.lin.kernel.value))
    return marks
