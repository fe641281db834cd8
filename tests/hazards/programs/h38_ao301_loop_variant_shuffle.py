"""Epoch-shuffled training: `reshuffle` permutes the index array in place with the
NumPy Generator, and each epoch transfers the training set in that order. Trap for
AO301: `x_train[order]` looks invariant (nothing in the loop assigns `order`), but its
data varies with every epoch."""

import jax
import jax.numpy as jnp
import numpy as np


def reshuffle(order, rng):
    rng.shuffle(order)


@jax.jit
def epoch_pass(w, xs, ys):
    def body(w, xy):
        x, y = xy
        g = (jnp.dot(w, x) - y) * x
        return w - 0.05 * g, jnp.dot(w, x) - y

    return jax.lax.scan(body, w, (xs, ys))


def main():
    rng = np.random.default_rng(18)
    x_train = rng.normal(size=(16, 3)).astype(np.float32)
    y_train = (x_train @ np.array([0.5, -1.0, 2.0], np.float32)).astype(np.float32)
    order = np.arange(16)
    w = jnp.zeros(3)
    residuals = []
    for _ in range(4):
        reshuffle(order, rng)
        w, res = epoch_pass(w, jnp.asarray(x_train[order]), jnp.asarray(y_train[order]))
        residuals.append(res)
    return w, jnp.stack(residuals)
