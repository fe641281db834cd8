"""Stochastic exploration whose noise source is picked from a table of host
samplers (`np.random.standard_normal`, legacy global state, seeded)."""

import jax.numpy as jnp
import numpy as np

SAMPLERS = {"normal": np.random.standard_normal, "uniform": np.random.random_sample}


def explore(x, kind):
    return x + 0.1 * jnp.asarray(SAMPLERS[kind](3), jnp.float32)


def main():
    np.random.seed(226)
    x = jnp.zeros(3)
    for _ in range(8):
        x = 0.9 * x
        x = explore(x, "normal")
    return x
