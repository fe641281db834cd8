"""Eager training loop; every 3 steps the params are kept for a later plot."""

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((jnp.tanh(x @ w) - y) ** 2)


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (16, 3))
    y = jnp.tanh(x @ jnp.array([0.5, -1.0, 0.25]))
    w = jnp.zeros(3)
    snapshots = []
    for step in range(9):
        g = jax.grad(loss_fn)(w, x, y)
        w = w - 0.5 * g
        if step % 3 == 0:
            snapshots.append(w)
    return jnp.stack(snapshots), w
