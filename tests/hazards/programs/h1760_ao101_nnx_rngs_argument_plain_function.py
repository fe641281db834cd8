"""A plain helper draws noise from an `nnx.Rngs` it is given (`rngs.noise()` advances
the stream's counter in place); called eagerly in a loop.
"""

import jax
import jax.numpy as jnp
from flax import nnx


def add_noise(x, rngs):
    return x + 0.1 * jax.random.normal(rngs.noise(), x.shape)


def main():
    rngs = nnx.Rngs(noise=0)
    x = jnp.zeros(3)
    for _ in range(4):
        x = add_noise(x, rngs)
    return x
