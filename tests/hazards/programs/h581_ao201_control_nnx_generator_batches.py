"""Control (for h580, issue 26): flax nnx, an `@nnx.jit` step updating a library-built
module in place, a NumPy Generator drawing every batch and drawing again after the
loop. The Generator holds no device buffer of the module: donating the module (which
`nnx.jit` writes back) keeps the results.
"""

import jax.numpy as jnp
import numpy as np
from flax import nnx


@nnx.jit
def step(model, x):
    model.bias.value = model.bias.value + jnp.tanh(model(x)).mean(axis=0)
    return model.bias.value.sum()


def main():
    model = nnx.Linear(3, 4, rngs=nnx.Rngs(0))
    rng = np.random.default_rng(1)
    totals = []
    for _ in range(5):
        x = jnp.asarray(rng.standard_normal((8, 3)).astype(np.float32))
        totals.append(step(model, x))
    return {"totals": jnp.stack(totals), "bias": model.bias.value, "draw": rng.standard_normal(2)}
