"""nnx: an eager loop calls a dropout model with a separate `nnx.Rngs` (its counter
advances in place every call) and takes plain SGD steps on a JAX array.
"""

import jax.numpy as jnp
from flax import nnx


def main():
    drop = nnx.Dropout(0.5)
    rngs = nnx.Rngs(dropout=3)
    x = jnp.ones((4, 3))
    w = jnp.ones(3) * 0.5
    for _ in range(4):
        h = drop(x * w, rngs=rngs)
        grad = jnp.mean(h, axis=0)
        w = w - 0.1 * grad
    return w
