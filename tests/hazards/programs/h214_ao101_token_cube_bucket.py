"""Hashing trick for a vocabulary too big for its table: a token id picks a bucket by
`(token ** 3 + 7 * token) % 1009`. Token ids are around 5000, so the cube exceeds
int32: exact for Python ints, wrapped for traced int32."""

import jax.numpy as jnp


def bucket_embed(table, token):
    bucket = (token**3 + 7 * token) % 1009
    return table[bucket % table.shape[0]] * 2.0


def main():
    table = jnp.arange(64.0).reshape(16, 4)
    rows = []
    for token in range(5000, 5012):
        rows.append(bucket_embed(table, token))
    return jnp.stack(rows)
