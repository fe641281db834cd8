"""Painting columns of a caller's canvas with `canvas.at[:, i].set(...)`, then comparing
the painted canvas with the blank one the caller kept. Trap for AO401's multi-axis
helper: donating `canvas` on the first column deletes the caller's `blank`, which is
read after the call."""

import jax.numpy as jnp


def paint_columns(canvas, n):
    for i in range(n):
        canvas = canvas.at[:, i].set(jnp.arange(canvas.shape[0]) * 0.5 + i)
    return canvas


def main():
    blank = jnp.zeros((4, 6))
    painted = paint_columns(blank, 6)
    changed = jnp.sum(painted != blank)
    return painted, blank, changed
