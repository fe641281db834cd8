"""A training loop collects `float(loss)` in `losses` and prints the last value every
fourth step, but reads it through `history`, an alias bound to the same list before
the loop (the logging code was written against `history`). Trap for AO302: deferring
the conversions until a statement reads `losses` misses the read through `history`,
which would see a list that has not been filled yet."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jnp.array([[1.0, 2.0], [2.0, -1.0], [0.5, 0.5]])
    y = jnp.array([1.0, 0.0, 2.0])
    w = jnp.zeros(2)
    losses = []
    history = losses
    for i in range(12):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        if i % 4 == 3:
            print(f"step {i}: n={len(history)} last={history[-1]:.5f}")
    return w, losses
