"""A resumed run: `for epoch in range(start, n_epochs)` runs zero times when the
checkpoint is already at the end; the per-epoch loss-weight table from the config is
ragged then (one entry per stage, stages of different lengths).
"""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w - 0.1 * jax.grad(lambda w: jnp.sum((w - 1.0) ** 2))(w)


def train(w, start, n_epochs, weights):
    for epoch in range(start, n_epochs):
        w = step(w) * jnp.asarray(weights)[epoch % 2]
    return w


def main():
    resumed = train(jnp.zeros(2), 3, 3, [[1.0], [0.5, 0.5]])
    fresh = train(jnp.zeros(2), 0, 3, [[1.0, 1.0], [0.9, 0.9]])
    return resumed, fresh
