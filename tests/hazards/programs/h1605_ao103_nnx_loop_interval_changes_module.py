"""flax nnx, an eager counted loop of an `nnx.jit` step read every 5 steps: the interval
block halves the parameters with `nnx.update`. Trap for AO103 (nnx whole loop): the
module changes outside the step as well; no fix, the update named."""

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
            nnx.update(model, jax.tree.map(lambda p: p * 0.5, nnx.state(model, nnx.Param)))
            sums.append(float(jnp.sum(model.kernel[...])))
    return sums, model.kernel[...], model.bias[...], i
