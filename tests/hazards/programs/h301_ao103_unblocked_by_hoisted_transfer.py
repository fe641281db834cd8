"""Found by benchmarks/fuzz_rewrites.py (seed 7). Trap for the rewrite's fixpoint: AO301
hoists `jnp.asarray(host1)`, after which the loop body is a step AO103 runs as one
`lax.scan`; one `rewrite --write` must reach that code (a second run changes nothing)."""

import jax.numpy as jnp
import numpy as np


def main():
    host1 = np.arange(12, dtype=np.float64).reshape(3, 4)
    acc1 = jnp.zeros(4)
    for _ in range(5):
        d1 = jnp.asarray(host1)
        acc1 = acc1 + d1[0] * d1[2]
    return (acc1, host1)
