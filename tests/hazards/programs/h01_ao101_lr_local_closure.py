"""Least squares by gradient descent; the step closes over a learning rate that the
loop halves every 10 epochs. Trap for AO101: jit freezes `lr` at its first value."""

import jax.numpy as jnp
import numpy as np


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(64, 3)), jnp.float32)
    y = x @ jnp.array([1.5, -2.0, 0.5]) + 0.1 * jnp.asarray(rng.normal(size=64), jnp.float32)
    w = jnp.zeros(3)
    lr = 0.2

    def gd_step(w):
        residual = x @ w - y
        grad = 2.0 * jnp.mean(x * residual[:, None], axis=0)
        return w - lr * grad

    for epoch in range(30):
        w = gd_step(w)
        if epoch % 10 == 9:
            lr = lr * 0.5
    return w, jnp.mean((x @ w - y) ** 2)
