"""nnx model split once at module level (`GRAPHDEF, STATE = nnx.split(...)`);
`predict(x)` rebuilds it with `nnx.merge` and calls it, and the module's `__call__`
prints a line per call. Trap for AO101: jitted, `predict` would print once at trace
time; the effect is in the method of the module `nnx.merge` returns."""

import jax.numpy as jnp
from flax import nnx


class Head(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 1, rngs=rngs)

    def __call__(self, x):
        print("head called")
        return self.linear(x)


GRAPHDEF, STATE = nnx.split(Head(nnx.Rngs(3)))


def predict(x):
    return jnp.sum(nnx.merge(GRAPHDEF, STATE)(x))


def main():
    outs = []
    for k in range(3):
        outs.append(predict(jnp.array([[1.0, float(k)]])))
    return jnp.stack(outs)
