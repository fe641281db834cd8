"""Losses collected with `float(loss)`, the window's mean printed every four steps and
the list emptied with `losses.clear()`. Trap for AO302: a deferred conversion would
flush values after the clear, or fill the list with every step's loss at the end."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((jnp.tanh(x @ v) - y) ** 2))(w)
    return w - 0.5 * g, loss


def main():
    x = jnp.array([[1.0, -1.0], [0.5, 1.0], [1.0, 1.0], [-1.0, 0.0]])
    y = jnp.array([0.2, 0.6, 0.8, -0.4])
    w = jnp.zeros(2)
    losses = []
    means = []
    for i in range(14):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        if i % 4 == 3:
            means.append(float(np.mean(losses)))
            print(f"{i + 1}: {means[-1]:.6f}")
            losses.clear()
    return means, losses
