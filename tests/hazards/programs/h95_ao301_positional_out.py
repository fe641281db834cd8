"""Renderer: scales a source image into a reusable frame buffer before each step, with
`np.multiply(SRC, gain, frame)`. Trap for AO301: a ufunc's positional argument after
its inputs is its `out`, so the helper refills `frame` in place; the transfer of `frame`
is not loop-invariant."""

import jax.numpy as jnp
import numpy as np

SRC = np.linspace(0.0, 1.0, 16).reshape(4, 4)


def render(frame, gain):
    np.multiply(SRC, gain, frame)


def main():
    frame = np.empty((4, 4))
    total = jnp.zeros((4, 4))
    for step in range(10):
        render(frame, 1.0 + step)
        img = jnp.array(frame)
        total = total + img * 0.5
    return total
