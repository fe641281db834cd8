"""Eager loop that restarts the momentum buffer every 4 steps."""

import jax
import jax.numpy as jnp


def loss_fn(w):
    return jnp.sum((w - jnp.array([1.0, 2.0, 3.0])) ** 2)


def main():
    w = jnp.zeros(3)
    m = jnp.zeros(3)
    for step in range(10):
        g = jax.grad(loss_fn)(w)
        m = 0.9 * m + g
        w = w - 0.05 * m
        if step % 4 == 3:
            m = jnp.zeros_like(m)
    return w, m
