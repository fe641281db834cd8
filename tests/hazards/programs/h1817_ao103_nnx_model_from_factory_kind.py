"""nnx: `make_model(kind)` returns a bare `nnx.Linear` or a `Logged` model whose
`__call__` counts its calls in a plain int attribute; the training loop, an `nnx.jit`
step and an eval every 2 steps, is the same for both. Trap for AO103 (nnx whole
loop): the `Logged` model changes its graph at every call; a compiled loop of the steps
cannot carry it."""

import jax.numpy as jnp
import optax
from flax import nnx


class Logged(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(2, 2, rngs=rngs)
        self.calls = 0

    def __call__(self, x):
        self.calls = self.calls + 1
        return self.lin(x)


def make_model(kind):
    if kind == "logged":
        return Logged(nnx.Rngs(0))
    return nnx.Linear(2, 2, rngs=nnx.Rngs(0))


@nnx.jit
def train_step(model, optimizer, x):
    grads = nnx.grad(lambda m: jnp.mean((m(x) - 1.0) ** 2))(model)
    optimizer.update(model, grads)


def main():
    x = jnp.array([[0.5, 1.0], [1.0, 0.5]])
    model = make_model("logged")
    optimizer = nnx.Optimizer(model, optax.sgd(0.2), wrt=nnx.Param)
    evals = []
    for step in range(6):
        train_step(model, optimizer, x)
        if step % 2 == 1:
            evals.append((model.calls, jnp.sum(model(x))))
    return evals
