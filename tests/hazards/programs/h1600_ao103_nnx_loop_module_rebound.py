"""flax nnx, an eager counted loop of an `nnx.jit` step read every 5 steps: the interval
block builds a new model and optimizer (a restart). Trap for AO103 (nnx whole loop): the
steps after the restart must train the new objects; `model` is not one proven object at
the step: no fix."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    scale = jnp.mean(x) - jnp.mean(y)
    grads = jax.tree.map(lambda p: p * scale + 0.01, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 2.0, 24).reshape(8, 3)
    y = jnp.ones((8, 1))
    sums = []
    for i in range(23):
        train_step(model, optimizer, x, y)
        if i % 5 == 0:
            if i == 10:
                model = nnx.Linear(3, 1, rngs=nnx.Rngs(1))
                optimizer = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)
            sums.append(float(jnp.sum(model.kernel[...])))
    return sums, model.kernel[...], model.bias[...], i
