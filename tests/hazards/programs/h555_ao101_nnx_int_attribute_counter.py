"""Framework hazard (issue 26): an nnx Module attribute that is a Python int counter.

`NoisyScaler` keeps `self.calls` as a plain int (not an `nnx.Variable`) and bumps it
on every call; the call number picks the scale of that call. The eager helper that
runs it is called in a loop. Under `jax.jit` the module is flattened into a traced
copy: the increments are lost (`calls` stays 0) and every call gets the first call's
scale. (`nnx.jit` writes the attribute back and keeps the results.)
"""

import jax.numpy as jnp
import numpy as np
from flax import nnx


class NoisyScaler(nnx.Module):
    def __init__(self, dim, *, rngs: nnx.Rngs):
        self.linear = nnx.Linear(dim, dim, rngs=rngs)
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        return self.linear(x) * (1.0 + 0.1 * (self.calls % 3))


def score(model, x):
    return jnp.sum(model(x) ** 2)


def main():
    rng = np.random.default_rng(0)
    model = NoisyScaler(4, rngs=nnx.Rngs(0))
    xs = jnp.asarray(rng.normal(size=(9, 4)).astype(np.float32))
    scores = []
    for i in range(xs.shape[0]):
        scores.append(score(model, xs[i]))
    return {"scores": jnp.stack(scores), "calls": model.calls}
