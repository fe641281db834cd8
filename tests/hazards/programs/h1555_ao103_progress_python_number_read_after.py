"""Eager loop carrying a Python number `progress`, read after the loop."""

import jax
import jax.numpy as jnp


def loss_fn(w, x):
    return jnp.sum((x - w) ** 2)


def main():
    x = jnp.array([0.5, 1.5, -1.0])
    w = jnp.zeros(3)
    progress = 0.0
    for step in range(8):
        g = jax.grad(loss_fn)(w, x)
        w = w - 0.1 * g
        progress = progress + 1 / 8
    return w, progress, type(progress).__name__
