"""plain jax, reporting: `tidy(deltas)` rounds the per-epoch weight changes to 3 decimals
and adds `0.0`, the usual trick to turn `-0.0` into `0.0` so the printed report never
shows "-0."; the loop prints each epoch's row. Eagerly `-0.0 + 0.0` is `+0.0`. Trap for
AO101: jitted, XLA's algebraic simplifier folds `x + 0.0` to `x`, so rounded small
negative changes print as `-0.` and the printed lines differ."""

import jax.numpy as jnp


def tidy(deltas):
    return jnp.round(deltas, 3) + 0.0


def main():
    w = jnp.array([0.5, -0.25, 0.125, 0.0])
    rows = []
    for epoch in range(3):
        new_w = w * 0.9999
        row = tidy(new_w - w)
        print("epoch", epoch, row)
        rows.append(row)
        w = new_w
    return rows
