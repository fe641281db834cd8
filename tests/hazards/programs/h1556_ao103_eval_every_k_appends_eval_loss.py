"""Eager loop: update, then every 3 steps an eval loss kept on the device in a list."""

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def main():
    k1, k2 = jax.random.split(jax.random.PRNGKey(3))
    x = jax.random.normal(k1, (16, 2))
    xv = jax.random.normal(k2, (8, 2))
    tw = jnp.array([2.0, -1.0])
    y, yv = x @ tw, xv @ tw
    w = jnp.zeros(2)
    evals = []
    for step in range(10):
        g = jax.grad(loss_fn)(w, x, y)
        w = w - 0.1 * g
        if step % 3 == 0:
            evals.append(loss_fn(w, xv, yv))
    return jnp.stack(evals)
