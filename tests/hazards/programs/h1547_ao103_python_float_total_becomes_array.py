"""A Python float total that the first step turns into a device array."""

import jax
import jax.numpy as jnp


def loss_fn(w):
    return jnp.sum((w - 2.0) ** 2)


def main():
    w = jnp.zeros(3)
    total = 0.0
    for step in range(6):  # noqa: B007
        loss, g = jax.value_and_grad(loss_fn)(w)
        w = w - 0.1 * g
        total = total + loss
    return w, total
