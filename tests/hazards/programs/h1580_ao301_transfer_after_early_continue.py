"""A scoring loop skips every item with `continue` while no table is loaded; the
transfer of the table after it never runs then (the table is `None`).
"""

import jax.numpy as jnp


def score(xs, table):
    total = 0.0
    for x in xs:
        if table is None:
            total = total + x
            continue
        total = total + x * jnp.asarray(table)[0]
    return total


def main():
    xs = [jnp.float32(1.0), jnp.float32(2.0)]
    return score(xs, None), score(xs, [0.5, 0.25])
