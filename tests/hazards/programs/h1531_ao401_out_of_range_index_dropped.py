"""Stencil write whose index runs one past the end: `.at[].set` drops it."""

import jax.numpy as jnp


def scatter_spikes(n, positions):
    x = jnp.zeros((n,))
    for k, p in enumerate(positions):
        x = x.at[p + 1].set(1.0 + k)
    return x


def main():
    return scatter_spikes(6, [0, 2, 4, 5, 7])
