"""Eager loop: an `if` halves the Python-float rate every 5 steps before the update."""

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (12, 2))
    y = x @ jnp.array([1.5, -0.5])
    w = jnp.zeros(2)
    lr = 0.2
    for step in range(12):
        g = jax.grad(loss_fn)(w, x, y)
        w = w - lr * g
        if step % 5 == 4:
            lr = lr * 0.5
    return w, lr
