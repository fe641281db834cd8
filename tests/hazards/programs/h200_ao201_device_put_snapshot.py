"""Ridge regression that keeps "a copy on the device" of the starting weights with
`jax.device_put(w)` to report how far training moved them. On one device
`device_put` of a JAX array returns the very same array, so the snapshot is the
buffer a donating step would delete."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def ridge_step(w, x, y):
    residual = x @ w - y
    grad = x.T @ residual / x.shape[0] + 0.01 * w
    return w - 0.1 * grad


def main():
    rng = np.random.default_rng(200)
    x = jnp.asarray(rng.normal(size=(48, 4)), jnp.float32)
    y = x @ jnp.array([0.5, -1.0, 2.0, 0.0]) + 0.3
    w = jnp.full(4, 0.1)
    start = jax.device_put(w)
    for _ in range(25):
        w = ridge_step(w, x, y)
    moved = jnp.linalg.norm(w - start)
    return w, moved
