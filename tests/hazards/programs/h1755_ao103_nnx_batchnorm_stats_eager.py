"""nnx: an eager loop runs a BatchNorm model in training mode (running stats updated in
place), then a plain array update; the stats are read after the loop.
"""

import jax
import jax.numpy as jnp
from flax import nnx


def main():
    bn = nnx.BatchNorm(3, momentum=0.8, rngs=nnx.Rngs(0))
    x = jax.random.normal(jax.random.PRNGKey(1), (6, 3)) + 2.0
    shift = jnp.zeros(3)
    for _ in range(4):
        y = bn(x + shift)
        shift = shift + 0.1 * jnp.mean(y, axis=0) + 0.5
    return shift, bn.mean.value, bn.var.value
