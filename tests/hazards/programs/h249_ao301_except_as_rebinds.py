"""Fallback weights: a step that fails raises an exception carrying replacement
weights, caught with `except Fallback as err` and unpacked into `weights` through
a starred assignment."""

import jax.numpy as jnp
import numpy as np


class Fallback(Exception):
    def __init__(self, weights):
        super().__init__("fallback")
        self.weights = weights


def check(t):
    if t % 3 == 2:
        raise Fallback(np.full(3, float(t)))


def main():
    weights = np.ones(3)
    out = []
    for t in range(7):
        try:
            check(t)
        except Fallback as err:
            _, *weights = [0.0, *err.weights]
        out.append(jnp.sum(jnp.asarray(weights)))
    return jnp.stack(out)
