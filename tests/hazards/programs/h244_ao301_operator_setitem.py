"""Sparse host updates applied with `operator.setitem` from a table of
(index, value) pairs; the host vector is transferred each step."""

import operator

import jax.numpy as jnp
import numpy as np

UPDATES = [(0, 1.0), (2, -1.0), (1, 0.5), (3, 2.0)]


def main():
    vec = np.zeros(4)
    dots = []
    for idx, value in UPDATES:
        operator.setitem(vec, idx, value)
        dots.append(jnp.dot(jnp.asarray(vec), jnp.arange(4.0)))
    return jnp.stack(dots)
