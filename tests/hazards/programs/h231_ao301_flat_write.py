"""Image painted pixel by pixel through the `.flat` iterator of a host array; the
partial image is summed on the device every step."""

import jax.numpy as jnp
import numpy as np


def main():
    canvas = np.zeros((3, 3), dtype=np.float64)
    totals = []
    for t in range(9):
        canvas.flat[t] = t + 1.0
        totals.append(jnp.sum(jnp.asarray(canvas) ** 2))
    return jnp.stack(totals)
