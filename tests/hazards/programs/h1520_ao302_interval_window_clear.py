"""Windowed loss: the interval block prints the mean and clears the list."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (16, 3))
    y = x @ jnp.array([0.5, 1.0, -1.0])
    w = jnp.zeros(3)
    window = []
    means = []
    for i in range(12):
        w, loss = step(w, x, y)
        window.append(loss.item())
        if (i + 1) % 4 == 0:
            means.append(sum(window) / len(window))
            print(f"step {i + 1}: {means[-1]:.5f}")
            window.clear()
    return means, window, w
