"""An eager training loop, `jax.value_and_grad(loss_fn)(w, x, y)`, where `loss_fn` prints a
line each time it is evaluated (a debugging print left in). Trap for AO103: the print is
only reached through the function handed to `jax.value_and_grad`; compiled as one step,
it prints once at trace time instead of once per iteration."""

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    print("evaluating loss")
    return jnp.mean((x @ w - y) ** 2)


def main():
    x = jnp.array([[1.0, 0.5], [0.0, 1.0]])
    y = jnp.array([1.0, -1.0])
    w = jnp.zeros(2)
    for _ in range(3):
        loss, g = jax.value_and_grad(loss_fn)(w, x, y)
        w = w - 0.1 * g
        w = jnp.clip(w, -1.0, 1.0)
    return w, loss
