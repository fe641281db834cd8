"""flax nnx, an eager counted loop of an `nnx.jit` step read every 5 steps: the step
returns its loss, which the interval block prints. Trap for AO103 (nnx whole loop): a
compiled loop of the steps returns none: the read would see a stale `loss`; no fix, the
use named."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    scale = jnp.mean(x) - jnp.mean(y)
    grads = jax.tree.map(lambda p: p * scale + 0.01, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model.kernel[...]) * scale


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 2.0, 24).reshape(8, 3)
    y = jnp.ones((8, 1))
    sums = []
    for i in range(23):
        loss = train_step(model, optimizer, x, y)
        if i % 5 == 0:
            sums.append(float(loss))
            sums.append(float(jnp.sum(model.kernel[...])))
    return sums, model.kernel[...], model.bias[...], i
