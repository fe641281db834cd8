"""A training generator yields its loss list every step (progress for the caller); the
caller reads the last value each time.
"""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, loss


def train(x, y, n):
    w = jnp.zeros(2)
    losses = []
    for _ in range(n):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        yield losses


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (10, 2))
    y = x @ jnp.array([1.0, -1.0])
    seen = []
    for hist in train(x, y, 5):
        seen.append(hist[-1])
    return seen
