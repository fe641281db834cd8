"""Eager mask construction that starts from `jax.lax.stop_gradient(base)` (the same array
outside a trace); `base` is read again after.
"""

import jax
import jax.numpy as jnp


def mask_tokens(base, positions):
    masked = jax.lax.stop_gradient(base)
    for p in positions:
        masked = masked.at[p].set(0)
    return masked


def main():
    tokens = jnp.array([5, 6, 7, 8, 9, 10], dtype=jnp.int32)
    m = mask_tokens(tokens, [1, 4])
    return m, tokens.sum()
