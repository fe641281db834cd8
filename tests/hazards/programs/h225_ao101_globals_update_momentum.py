"""Heavy-ball step reading a global MOMENTUM that a warm-up routine raises with
`globals().update(MOMENTUM=...)`."""

import jax.numpy as jnp

MOMENTUM = 0.0


def heavy_ball(w, v, g):
    v = MOMENTUM * v - 0.1 * g
    return w + v, v


def warm_up(epoch):
    globals().update(MOMENTUM=min(0.9, 0.3 * epoch))


def main():
    w = jnp.array([3.0, -1.0])
    v = jnp.zeros(2)
    for epoch in range(8):
        w, v = heavy_ball(w, v, 2.0 * w)
        warm_up(epoch)
    return w, v
