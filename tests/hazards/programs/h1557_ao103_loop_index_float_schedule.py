"""Eager loop with a cosine schedule computed from the loop index with `math`."""

import math

import jax
import jax.numpy as jnp


def loss_fn(w):
    return jnp.sum((w - 3.0) ** 2)


def main():
    w = jnp.zeros(4)
    steps = 10
    for step in range(steps):
        lr = 0.1 * 0.5 * (1 + math.cos(math.pi * step / steps))
        g = jax.grad(loss_fn)(w)
        w = w - lr * g
    return w
