"""Eager loop with a per-step rate looked up in a Python list by the loop index."""

import jax
import jax.numpy as jnp

RATES = [0.3, 0.3, 0.2, 0.2, 0.1, 0.1, 0.05, 0.05]


def loss_fn(w):
    return jnp.sum((w - jnp.array([1.0, -1.0])) ** 2)


def main():
    w = jnp.zeros(2)
    for step in range(8):
        g = jax.grad(loss_fn)(w)
        w = w - RATES[step] * g
    return w
