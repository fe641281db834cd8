"""A mode given as an `IntEnum` member steers a Python `if` in the helper."""

import enum

import jax.numpy as jnp


class Mode(enum.IntEnum):
    TRAIN = 0
    EVAL = 1


def activation(x, mode):
    if mode == Mode.TRAIN:
        return jnp.maximum(x, 0.1 * x)
    return jnp.maximum(x, 0.0)


def main():
    x = jnp.linspace(-2.0, 2.0, 5)
    out = []
    for mode in [Mode.TRAIN, Mode.EVAL, Mode.TRAIN]:
        out.append(activation(x, mode))
    return jnp.stack(out)
