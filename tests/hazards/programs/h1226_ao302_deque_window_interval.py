"""A moving-average logger that keeps the last five losses in a
`collections.deque(maxlen=5)` and prints its mean every five steps. Trap for AO302:
the window is not a list; collecting the device values apart and converting them into
it in another form may keep other values."""

import collections

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jnp.array([[1.0, 2.0], [2.0, 0.5], [0.0, 1.0]])
    y = jnp.array([1.0, 1.0, 1.0])
    w = jnp.zeros(2)
    window = collections.deque(maxlen=5)
    for i in range(17):
        w, loss = step(w, x, y)
        window.append(float(loss))
        if i % 5 == 4:
            print(f"step {i + 1}: {sum(window) / len(window):.6f}")
    return w, list(window)
