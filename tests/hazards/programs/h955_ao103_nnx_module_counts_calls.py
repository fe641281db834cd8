"""flax nnx: a model whose `__call__` counts its calls in a plain Python attribute
(`self.calls += 1`) and an eager loop that trains with `nnx.value_and_grad` and
`optimizer.update`. Trap for AO103's nnx step: the Python counter is static graph
state, incremented at trace time only, so the count after training changes."""

import jax.numpy as jnp
import optax
from flax import nnx


class Counted(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 1, rngs=rngs)
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        return self.linear(x)


def main():
    model = Counted(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.array([[1.0, 2.0], [0.5, -1.0]])
    y = jnp.array([[1.0], [0.0]])
    for _ in range(3):
        loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
        optimizer.update(model, grads)
    return loss, model.calls
