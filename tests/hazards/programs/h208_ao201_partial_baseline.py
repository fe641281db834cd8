"""Logistic regression: a baseline predictor is built before training with
`functools.partial(predict, w)` and evaluated after the loop. The partial object
holds the initial weight array."""

import functools

import jax
import jax.numpy as jnp


def predict(w, x):
    return jax.nn.sigmoid(x @ w)


@jax.jit
def update(w, x, y):
    p = predict(w, x)
    return w - 0.5 * x.T @ (p - y) / x.shape[0]


def main():
    x = jnp.stack([jnp.linspace(-2, 2, 16), jnp.cos(jnp.arange(16.0))], axis=1)
    y = (x[:, 0] > 0).astype(jnp.float32)
    w = jnp.array([0.1, 0.1])
    baseline = functools.partial(predict, w)
    for _ in range(20):
        w = update(w, x, y)
    return baseline(x), predict(w, x)
