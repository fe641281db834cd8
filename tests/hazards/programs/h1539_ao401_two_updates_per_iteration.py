"""Two updates to the same array per iteration, the second reading the first."""

import jax.numpy as jnp


def pascal(n):
    row = jnp.zeros((n,), dtype=jnp.int32).at[0].set(1)
    for k in range(1, n):
        row = row.at[k].set(1)
        row = row.at[1:k].set(row[1:k] + row[0 : k - 1])
    return row


def main():
    return pascal(6)
