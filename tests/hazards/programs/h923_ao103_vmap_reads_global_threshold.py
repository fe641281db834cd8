"""An eager loop scoring a batch with `jax.vmap(score_one)`, where `score_one` reads the
module global `MARGIN`; `tighten()` rebinds it at the end of every iteration. Trap for
AO103: compiled, the vmapped function is traced once with the first margin."""

import jax
import jax.numpy as jnp

MARGIN = 1.0


def score_one(w, x):
    return jnp.maximum(0.0, MARGIN - x @ w)


def tighten():
    global MARGIN
    MARGIN = MARGIN * 0.5


def main():
    xs = jnp.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    w = jnp.array([0.1, 0.2])
    totals = []
    for _ in range(4):
        hinge = jax.vmap(score_one, in_axes=(None, 0))(w, xs)
        w = w + 0.1 * hinge.mean()
        totals.append(hinge.sum())
        tighten()
    return w, jnp.stack(totals)
