"""Eager loop that asserts the loss is finite after each update."""

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (8, 2))
    y = x @ jnp.array([1.0, -1.0])
    w = jnp.zeros(2)
    for step in range(6):  # noqa: B007
        loss, g = jax.value_and_grad(loss_fn)(w, x, y)
        w = w - 0.1 * g
        assert jnp.isfinite(loss), "diverged"
        w = jnp.clip(w, -5.0, 5.0)
    return w
