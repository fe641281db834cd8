"""An eager loop step around an `nnx.jit` function that updates the model in place and
calls it: the model's class prints in `__call__`. Trap for AO103's nnx step: compiled
with `nnx.jit`, the step traces the function again, so the print runs once more than
eagerly (where `decay` was traced before the loop)."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Noisy(nnx.Module):
    def __init__(self):
        self.kernel = nnx.Param(jnp.ones((3, 1)))
        self.bias = nnx.Param(jnp.zeros(1))

    def __call__(self, x):
        print("called")
        return x @ self.kernel[...] + self.bias[...]


@nnx.jit
def decay(model, optimizer, scale):
    grads = jax.tree.map(lambda p: p * scale, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model(jnp.ones((1, 3))))


def main():
    model = Noisy()
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.ones(3)
    decay(model, optimizer, 0.0)  # traced here, before the loop
    for _ in range(6):
        scale = jnp.cos(x[0]) * 0.5 + 0.5
        total = decay(model, optimizer, scale)
        x = jnp.sin(x) * total
    return x, model.kernel[...]
