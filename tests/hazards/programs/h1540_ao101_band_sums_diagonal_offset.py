"""Autocorrelation-style band sums of a Gram matrix: `jnp.diagonal(G, offset=k).sum()`."""

import jax
import jax.numpy as jnp


def band_mean(gram, k):
    return jnp.diagonal(gram, offset=k).mean()


def main():
    x = jax.random.normal(jax.random.PRNGKey(3), (6, 4))
    gram = x @ x.T
    bands = []
    for k in range(4):
        bands.append(band_mean(gram, k))
    return jnp.stack(bands)
