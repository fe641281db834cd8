"""An nnx module that memoises its outputs in a plain dict attribute keyed by the batch
id it is given (`self.cache[batch_id] = out`), called through an `infer` helper in an
eager loop. Trap for AO101: jitted, the helper would store tracers in the cache (or key
it by a tracer), and the cache read after the loop would not hold the outputs."""

import jax.numpy as jnp
from flax import nnx


class Encoder(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 2, rngs=rngs)
        self.cache = {}

    def __call__(self, x, batch_id):
        out = jnp.tanh(self.linear(x))
        self.cache[batch_id] = out
        return out


def infer(model, x, batch_id):
    return model(x, batch_id) * 2.0


def main():
    model = Encoder(nnx.Rngs(4))
    total = jnp.zeros((1, 2))
    for b in range(3):
        total = total + infer(model, jnp.full((1, 2), float(b)), b)
    print("cached", sorted(model.cache))
    return total, [model.cache[b] for b in sorted(model.cache)]
