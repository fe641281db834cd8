"""Functional nnx inference: `predict(graphdef, state, x)` rebuilds the model with
`nnx.merge` and calls it; the module's `__call__` logs each forward pass with a plain
`print`. Trap for AO101: jitting `predict` runs the print once, at trace time, instead
of once per batch; the effect is in a method reached through the merged module."""

import jax.numpy as jnp
from flax import nnx


class Classifier(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 2, rngs=rngs)

    def __call__(self, x):
        print(f"forward: batch of {x.shape[0]}")
        return self.linear(x)


def predict(graphdef, state, x):
    return nnx.merge(graphdef, state)(x)


def main():
    graphdef, state = nnx.split(Classifier(nnx.Rngs(0)))
    outs = []
    for k in range(4):
        x = jnp.full((2, 3), float(k))
        outs.append(predict(graphdef, state, x))
    return jnp.stack(outs)
