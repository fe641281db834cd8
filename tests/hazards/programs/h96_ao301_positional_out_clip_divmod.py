"""Exposure sweep: each step clips the source image into the frame buffer with
`np.clip(src, 0.0, limit, frame)` and splits the pixels with
`np.divmod(x, 1.0, whole, frac)`, both writing through positional outputs (a
function's `out` after its options, a ufunc's second output). Trap for AO301: no call
names `out=`, yet both refill the buffers the loop transfers."""

import jax.numpy as jnp
import numpy as np


def main():
    src = np.linspace(-1.0, 3.0, 12).reshape(3, 4)
    frame = np.zeros((3, 4))
    whole = np.zeros((3, 4))
    frac = np.zeros((3, 4))
    acc = jnp.zeros((3, 4))
    for step in range(6):
        np.clip(src, 0.0, 0.5 + 0.4 * step, frame)
        np.divmod(src * (1.0 + step), 1.0, whole, frac)
        acc = acc + jnp.asarray(frame) + jnp.asarray(whole) - jnp.asarray(frac)
    return acc
