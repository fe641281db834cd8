"""Embeddings grown by concatenation over the pieces of `jnp.array_split(tokens, 3)`
(a list of ragged pieces). Trap for AO402: the pieces have 3, 3 and 2 rows; a
preallocation sized from the first piece or a loop count misplaces rows."""

import jax.numpy as jnp


def embed(piece):
    return jnp.stack([piece, piece**2], axis=1)


def main():
    tokens = jnp.arange(8.0) / 8.0
    out = jnp.zeros((0, 2))
    for piece in jnp.array_split(tokens, 3):
        out = jnp.concatenate([out, embed(piece)], axis=0)
    return out
