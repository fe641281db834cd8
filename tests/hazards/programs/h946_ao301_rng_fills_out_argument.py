"""Exploration noise drawn with `rng.standard_normal(out=noise)` into a preallocated host
buffer each step, then transferred with `jnp.asarray(noise)`. Trap for AO301: the
buffer is written through the `out=` keyword of a Generator method, so the transfer is
not loop-invariant. Float64 host data."""

import jax.numpy as jnp
import numpy as np


def main():
    rng = np.random.default_rng(7)
    noise = np.empty(3, dtype=np.float64)
    action = jnp.zeros(3)
    for _ in range(4):
        rng.standard_normal(out=noise)
        action = 0.5 * action + 0.1 * jnp.asarray(noise)
    return action
