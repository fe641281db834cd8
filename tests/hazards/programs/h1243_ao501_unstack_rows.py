"""Per-row normalisation over `jnp.unstack(batch)` (a tuple of rows), results stacked.
Trap for AO501: the examples are a tuple; a vmap over it maps every row's own axis."""

import jax.numpy as jnp


def normalise(row):
    return (row - row.mean()) / (row.std() + 1e-6)


def main():
    batch = jnp.array([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0], [2.0, 2.0, 2.5]])
    out = [normalise(row) for row in jnp.unstack(batch)]
    return jnp.stack(out)
