"""Noise drawn into a preallocated float64 buffer with `rng.standard_normal(out=buf)`."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def perturb(w, noise):
    return w + 0.01 * noise


def main():
    rng = np.random.default_rng(0)
    buf = np.empty(5, dtype=np.float64)
    w = jnp.zeros(5)
    for _ in range(4):
        rng.standard_normal(out=buf)
        w = perturb(w, jax.device_put(buf))
    return w
