"""Eager relaxation loop of device statements; `anchors = itertools.repeat(u)` made
before the loop (to pair every later report with the start) is read after it.
"""

import itertools

import jax.numpy as jnp


def main():
    u = jnp.linspace(0.0, 1.0, 7) ** 2
    anchors = itertools.repeat(u)
    for _ in range(5):
        smooth = 0.25 * jnp.roll(u, 1) + 0.5 * u + 0.25 * jnp.roll(u, -1)
        u = 0.5 * u + 0.5 * smooth
    start = next(anchors)
    return u, jnp.abs(u - start).max()
