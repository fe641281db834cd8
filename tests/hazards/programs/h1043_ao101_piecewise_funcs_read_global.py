"""A Huber-like robust loss written with `jnp.piecewise`, whose branch functions read
the module global `DELTA`, shrunk by the loop (a continuation schedule). Trap for
AO101: jitting the step freezes `DELTA` inside the branch functions."""

import jax
import jax.numpy as jnp

DELTA = 2.0


def robust(r):
    return jnp.piecewise(
        r,
        [jnp.abs(r) <= DELTA],
        [lambda t: 0.5 * t**2, lambda t: DELTA * (jnp.abs(t) - 0.5 * DELTA)],
    )


def step(w, x, y):
    g = jax.grad(lambda v: jnp.mean(robust(x @ v - y)))(w)
    return w - 0.1 * g


def main():
    global DELTA
    x = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]])
    y = jnp.array([3.0, -2.0, 0.5, 6.0])
    w = jnp.zeros(2)
    for i in range(10):  # noqa: B007
        w = step(w, x, y)
        DELTA = DELTA * 0.6
    return w
