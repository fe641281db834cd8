"""Boundary rows written with negative indices on a 4-axis field."""

import jax.numpy as jnp


def set_halo(field, n):
    for c in range(field.shape[1]):
        for i in range(1, n + 1):
            field = field.at[:, c, -i, -1].set(float(c * 10 + i))
    return field


def main():
    field = jnp.zeros((2, 3, 4, 5))
    out = set_halo(field, 3)
    return out, out.sum()
