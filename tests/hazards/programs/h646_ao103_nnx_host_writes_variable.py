"""A bias fitted by hand on an nnx model from host code: each step runs the model,
computes the error and writes the new bias into the module's `nnx.Param` with
`model.bias.value = ...`. Trap for AO103: the body looks like device work in several
statements, but a `jax.jit` step cannot write the module's variable; extracted, the
bias would stay at its first value."""

import jax.numpy as jnp
from flax import nnx


def main():
    model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = jnp.ones((4, 2))
    for _ in range(6):
        err = model(x) - y
        step = 0.5 * err.mean(axis=0)
        model.bias.value = model.bias.value - step
    print("bias", [round(float(b), 5) for b in model.bias.value])
    return model.bias.value, model(x)
