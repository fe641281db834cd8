"""Proximal-point training: every batch is zipped with the starting point,
`zip(xs, ys, itertools.repeat(w))`, the proximal centre the step pulls towards.
Trap for AO201: the repeated value is the parameter buffer itself; donating `w` at the
first step deletes the centre every later batch carries."""

import itertools

import jax
import jax.numpy as jnp


@jax.jit
def prox_step(w, x, y, centre):
    g = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2) + 0.5 * jnp.sum((v - centre) ** 2))(w)
    return w - 0.1 * g


def main():
    xs = jnp.linspace(0.0, 1.0, 30).reshape(5, 3, 2)
    ys = jnp.stack([x @ jnp.array([1.0, -2.0]) for x in xs])
    w = jnp.array([0.0, 0.5])
    for x, y, centre in zip(xs, ys, itertools.repeat(w)):
        w = prox_step(w, x, y, centre)
    return w
