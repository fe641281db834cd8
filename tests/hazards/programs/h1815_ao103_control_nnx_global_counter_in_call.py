"""nnx: control. A model whose `__call__` counts forward passes in a module-level dict
(`STATS["forward"] += 1`); the `nnx.jit` step runs every iteration, an evaluation every
2 steps prints the count. The count moves only when the step is traced (once) and at
the eager evaluations; a compiled loop of the steps (AO103, nnx whole loop) traces the
step once too and prints the same lines (checked by hand with `nnx.fori_loop`)."""

import jax.numpy as jnp
import optax
from flax import nnx

STATS = {"forward": 0}


class Net(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(2, 2, rngs=rngs)

    def __call__(self, x):
        STATS["forward"] += 1
        return self.lin(x)


@nnx.jit
def train_step(model, optimizer, x):
    def loss_fn(model):
        return jnp.sum(model(x) ** 2)

    grads = nnx.grad(loss_fn)(model)
    optimizer.update(model, grads)


def main():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.05), wrt=nnx.Param)
    x = jnp.array([[1.0, 2.0]])
    for i in range(6):
        train_step(model, optimizer, x)
        if i % 2 == 1:
            print("forward passes", STATS["forward"], float(jnp.sum(model(x))))
    return STATS["forward"]
