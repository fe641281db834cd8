"""An nnx module of the program that ties two weights to one array, trained in place by
an `nnx.jit` step. Trap for AO201: donating the module donates that buffer twice (XLA
refuses); only the library's constructors are known to build distinct buffers."""

import jax.numpy as jnp
from flax import nnx


class Tied(nnx.Module):
    def __init__(self):
        w = jnp.ones(3)
        self.a = nnx.Param(w)
        self.b = nnx.Param(w)


@nnx.jit
def step(model, x):
    model.a.value = model.a.value + x
    return model.b.value.sum()


def main():
    model = Tied()
    x = jnp.ones(3)
    for _ in range(3):
        total = step(model, x)
    return total
