"""Minibatch SGD over a NumPy dataset: `fill_batch` copies the next rows into one
reusable host buffer, which the loop then transfers. Trap for AO301: the buffer is
refilled in place by a helper, so its transfer is not loop-invariant."""

import jax
import jax.numpy as jnp
import numpy as np

BATCH = 8


def fill_batch(out, data, step):
    rows = (step * BATCH + np.arange(BATCH)) % data.shape[0]
    np.copyto(out, data[rows])


@jax.jit
def sgd_step(w, batch):
    x, y = batch[:, :-1], batch[:, -1]
    g = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g


def main():
    rng = np.random.default_rng(15)
    x = rng.normal(size=(40, 3))
    data = np.concatenate([x, (x @ np.array([1.0, -2.0, 0.5]))[:, None]], axis=1)
    buf = np.zeros((BATCH, 4))
    w = jnp.zeros(3)
    for step in range(15):
        fill_batch(buf, data, step)
        w = sgd_step(w, jnp.asarray(buf))
    return w
