"""flax nnx, an eager counted loop of an `nnx.jit` step read every 5 steps: control: the
steps between the reads run as one `nnx.fori_loop` (safe). Trap for AO103 (nnx whole
loop): Adam's moments and count must ride in the carry; 23 steps, reads at 0, 5, ..., 20
and the last two steps after the loop."""

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
            sums.append(float(jnp.sum(model.kernel[...])))
    return sums, model.kernel[...], model.bias[...], i
