"""Elementwise host decay written with `np.nditer(..., op_flags=[["readwrite"]])`,
NumPy's documented way to modify an array while iterating over it."""

import jax.numpy as jnp
import numpy as np


def main():
    weights = np.linspace(1.0, 2.0, 4)
    out = []
    for _ in range(4):
        with np.nditer(weights, op_flags=[["readwrite"]]) as it:
            for w in it:
                w[...] = 0.5 * w
        out.append(jnp.asarray(weights) * 2.0)
    return jnp.stack(out)
