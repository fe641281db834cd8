"""Decaying step size driven by a module-level `itertools.count()`: each call of the
update takes the next tick. Jitted, the tick is read once at trace time."""

import itertools

import jax.numpy as jnp

_TICK = itertools.count()


def update(w, g):
    k = next(_TICK)
    return w - g / (1.0 + k)


def main():
    w = jnp.array([4.0, -2.0])
    for _ in range(10):
        g = 0.5 * w
        w = update(w, g)
    return w
