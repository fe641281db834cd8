"""Framework hazard (issue 26): nnx modules mutated in place inside a loop.

BatchNorm statistics are re-estimated ("calibrated") after a weight change by running
the model in training mode over a few batches: every call updates
`bn.mean`/`bn.var` in place and returns nothing of them. The loop body keeps only
each batch's output mean. Compiling the body into a scan over the outputs, or
`jax.jit` of the call, would drop the in-place statistics updates.
"""

import jax.numpy as jnp
import numpy as np
from flax import nnx

BATCHES = 12


class Net(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.linear = nnx.Linear(5, 8, rngs=rngs)
        self.bn = nnx.BatchNorm(8, momentum=0.8, rngs=rngs)

    def __call__(self, x):
        return nnx.relu(self.bn(self.linear(x)))


def main():
    rng = np.random.default_rng(0)
    data = jnp.asarray(rng.normal(1.0, 2.0, size=(BATCHES, 32, 5)).astype(np.float32))
    model = Net(rngs=nnx.Rngs(0))
    model.train()
    batch_means = []
    for i in range(BATCHES):
        out = model(data[i])
        batch_means.append(jnp.mean(out))
    model.eval()
    return {
        "batch_means": jnp.stack(batch_means),
        "running_mean": model.bn.mean.value,
        "eval_out": model(data[0]),
    }
