"""A moving window of losses in `collections.deque(maxlen=3)`: appending drops the
oldest; the window's mean is returned.
"""

import collections

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    loss, g = jax.value_and_grad(lambda w: jnp.sum((x * w - 1.0) ** 2))(w)
    return w - 0.05 * g, loss


def main():
    x = jnp.array([1.0, 2.0, 3.0])
    w = jnp.zeros(3)
    window = collections.deque(maxlen=3)
    for _ in range(7):
        w, loss = step(w, x)
        window.append(float(loss))
    return list(window), sum(window) / len(window)
