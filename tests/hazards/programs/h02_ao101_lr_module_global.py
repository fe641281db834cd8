"""Logistic regression whose update reads the module-level LEARNING_RATE, which the
training loop decays in place (`global`). Trap for AO101: jit freezes the global."""

import jax
import jax.numpy as jnp
import numpy as np

LEARNING_RATE = 0.5


def loss_fn(w, x, y):
    logits = x @ w
    return jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)


grad_fn = jax.grad(loss_fn)


def sgd_update(w, g):
    return w - LEARNING_RATE * jnp.clip(g, -1.0, 1.0)


def main():
    global LEARNING_RATE
    LEARNING_RATE = 0.5
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.normal(size=(128, 4)), jnp.float32)
    y = (x[:, 0] - x[:, 2] > 0).astype(jnp.float32)
    w = jnp.zeros(4)
    for _ in range(12):
        w = sgd_update(w, grad_fn(w, x, y))
        LEARNING_RATE *= 0.9
    return w, loss_fn(w, x, y)
