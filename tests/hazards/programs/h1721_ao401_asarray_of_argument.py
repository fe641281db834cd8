"""`counts = jnp.asarray(initial)` of a JAX array argument is that array; the caller
reads `initial` after the histogram is filled in place.
"""

import jax.numpy as jnp


def histogram(initial, samples):
    counts = jnp.asarray(initial)
    for s in samples:
        counts = counts.at[s].add(1)
    return counts


def main():
    prior = jnp.ones(4, dtype=jnp.int32)
    h = histogram(prior, [0, 1, 1, 3, 3, 3])
    return h, prior
