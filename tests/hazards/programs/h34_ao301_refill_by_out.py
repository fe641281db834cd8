"""Structured-light reconstruction: `render` writes each projected pattern into one
reusable frame buffer with `np.multiply(..., out=frame)`, and the loop transfers the
frame. Trap for AO301: the `out=` write refills the buffer on every iteration."""

import jax.numpy as jnp
import numpy as np

PATTERN = np.linspace(0.0, 1.0, 12).reshape(3, 4)


def render(frame, phase):
    np.multiply(PATTERN, np.cos(phase), out=frame)


def accumulate(total, frame, weight):
    return total + weight * jnp.tanh(frame)


def main():
    frame = np.empty((3, 4))
    total = jnp.zeros((3, 4))
    for k in range(8):
        render(frame, 0.4 * k)
        total = accumulate(total, jnp.asarray(frame), 1.0 / (k + 1))
    return total
