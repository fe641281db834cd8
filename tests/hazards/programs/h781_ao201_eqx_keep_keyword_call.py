"""A step called with its kept arguments by keyword, in another order than the signature's.
Trap for AO201's keep-first form: the call must bind `xs` and `ys` by name when they move
first; swapped, the two (of one shape) give other numbers."""

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(w, xs, ys):
    return w + 0.5 * xs - 0.25 * ys


def main():
    xs = jnp.array([1.0, 2.0, 3.0])
    ys = jnp.array([10.0, 20.0, 40.0])
    w = jnp.zeros(3)
    for _ in range(3):
        w = step(w, ys=ys, xs=xs)
    return w, xs, ys
