"""Per-example scores over the rows of `jnp.unstack(batch)` (a tuple), indexed by
`range(len(rows))` and stacked. Trap for AO501: `jax.vmap(score)(rows)` maps over a
tuple, handing `score` a tuple of scalars instead of a row."""

import jax.numpy as jnp


def score(row):
    return jnp.tanh(row).sum() * 2.0


def main():
    batch = jnp.array([[0.5, 1.0], [-1.0, 2.0], [0.0, 0.25], [1.5, -0.5]])
    rows = jnp.unstack(batch)
    out = []
    for i in range(len(rows)):
        out.append(score(rows[i]))
    return jnp.stack(out)
