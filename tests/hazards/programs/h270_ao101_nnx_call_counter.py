"""flax nnx module that counts its calls in an `nnx.Variable` (in-place module state);
a plain function runs the model on each batch."""

import jax.numpy as jnp
from flax import nnx


class Counted(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 2, rngs=rngs)
        self.calls = nnx.Variable(jnp.zeros((), jnp.int32))

    def __call__(self, x):
        self.calls.value = self.calls.value + 1
        return self.linear(x)


def predict(model, x):
    return jnp.tanh(model(x))


def main():
    model = Counted(nnx.Rngs(1))
    outs = []
    for i in range(4):
        outs.append(predict(model, jnp.full((1, 2), float(i))))
    return jnp.concatenate(outs), model.calls.value
