"""Benchmark-style loop: each update is followed by `w.block_until_ready()`."""

import jax
import jax.numpy as jnp


def loss_fn(w):
    return jnp.sum(jnp.sin(w) ** 2)


def main():
    w = jnp.linspace(0.0, 1.0, 5)
    for step in range(5):  # noqa: B007
        g = jax.grad(loss_fn)(w)
        w = w - 0.1 * g
        w.block_until_ready()
        w = w * 0.99
    return w
