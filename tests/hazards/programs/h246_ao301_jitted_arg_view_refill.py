"""A jitted model is called with a NumPy batch that is a view (`pool[0]`) of a pool
refilled in place by `pool[...] = ...` each step."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def score(w, batch):
    return jnp.tanh(batch @ w).sum()


def main():
    pool = np.zeros((2, 5, 3))
    batch = pool[0]
    w = jnp.array([0.5, -0.25, 1.0])
    scores = []
    for t in range(4):
        pool[...] = np.arange(30.0).reshape(2, 5, 3) * 0.01 * (t + 1)
        scores.append(score(w, batch))
    return jnp.stack(scores)
