"""Control (for h1584, h1585): an `nnx.jit` probe is given one module, whose class stores
only a size and a `Param`, and the parameters, an array. Its body sees a copy of the
module and a tracer of the array, and has no other graph object to move the variable
to: it keeps none of the caller's buffers, so `scale`, read after every step, holds none
of `params`, and donating `params` to `step` stays safe."""

import jax
import jax.numpy as jnp
from flax import nnx


class Scale(nnx.Module):
    def __init__(self, n):
        self.n = n
        self.p = nnx.Param(jnp.full((n,), 2.0))


@nnx.jit
def probe(scale, params):
    return jnp.sum(scale.p[...] * params)


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    scale = Scale(3)
    params = jnp.arange(3.0)
    first = float(probe(scale, params))
    x = jnp.ones(3)
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(probe(scale, x)))
    return params, first, seen
