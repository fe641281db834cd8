"""Piecewise-constant learning-rate schedule written out as a Python list, indexed
by the epoch: fine for a Python int, a TypeError for a traced index."""

import jax
import jax.numpy as jnp

LRS = [0.3] * 10 + [0.1] * 10 + [0.03] * 10


def loss(w):
    return jnp.sum((w - jnp.array([1.0, -1.0, 2.0])) ** 2)


def main():
    w = jnp.zeros(3)
    for epoch in range(30):
        g = jax.grad(loss)(w)
        w = w - LRS[epoch] * g
    return w
