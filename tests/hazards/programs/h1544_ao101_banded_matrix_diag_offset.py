"""A banded operator assembled band by band with `jnp.diag(values, k)`."""

import jax.numpy as jnp


def band(values, offset):
    return jnp.diag(values, offset)


def main():
    n = 5
    op = jnp.zeros((n, n))
    coeffs = jnp.array([-1.0, 2.0, -1.0])
    for k in range(-1, 2):
        op = op + band(coeffs[k + 1] * jnp.ones(n - abs(k)), k)
    return op
