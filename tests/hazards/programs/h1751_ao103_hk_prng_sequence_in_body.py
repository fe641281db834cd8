"""Haiku: an eager Langevin loop draws its keys from `hk.PRNGSequence` (a host iterator
advanced by `next`) in the body.
"""

import haiku as hk
import jax
import jax.numpy as jnp


def main():
    seq = hk.PRNGSequence(42)
    x = jnp.ones(3)
    for _ in range(5):
        grad = 2.0 * x
        noise = jax.random.normal(next(seq), x.shape)
        x = x - 0.05 * grad + 0.1 * noise
    return x
