"""A feature normaliser written as a small class with `__call__`, built afresh inside
`preprocess(mean, std, x)` and called at once, `Normalizer(mean, std)(x)`; its
`__call__` logs every batch with a plain `print`. Trap for AO101: the print is in a
method of a class of the file, reached through a call of a constructor's result;
jitted, `preprocess` prints once at trace time instead of once per batch."""

import jax.numpy as jnp


class Normalizer:
    def __init__(self, mean, std):
        self.mean = mean
        self.std = std

    def __call__(self, x):
        print("normalising a batch of", x.shape[0])
        return (x - self.mean) / self.std


def preprocess(mean, std, x):
    return jnp.clip(Normalizer(mean, std)(x), -3.0, 3.0)


def main():
    mean = jnp.array([1.0, 2.0])
    std = jnp.array([0.5, 2.0])
    out = []
    for k in range(3):
        x = jnp.full((2, 2), float(k))
        out.append(preprocess(mean, std, x))
    return jnp.stack(out)
