"""An nnx model trained in place by an `nnx.jit` step, its first bias kept as `start`
and returned. Trap for AO201: donating `model` deletes the arrays it held, `start`
among them; `nnx.jit` writes new ones back into the module only."""

import jax.numpy as jnp
from flax import nnx


@nnx.jit
def bump(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model.bias.value.sum()


def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    start = model.bias.value
    x = jnp.ones(2)
    for _ in range(5):
        total = bump(model, x)
    return total, start, model.bias.value
