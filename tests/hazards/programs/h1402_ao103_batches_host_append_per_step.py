"""A minibatch loop over a device-resident dataset that appends each step's loss as a
Python float, and reads the list's length to pick a learning rate. Trap for AO103's
whole-loop scan of the batches: the list is host state the step reads back every
iteration (a scan would stack device values, and the rate would not follow)."""

import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 48
BATCH = 8
N_BATCHES = 6


@jax.jit
def sgd_step(w, x, y, lr):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - lr * grad, loss


def main():
    rng = np.random.default_rng(2)
    x = jnp.asarray(rng.normal(size=(N_SAMPLES, 3)).astype(np.float32))
    y = jnp.asarray(rng.normal(size=(N_SAMPLES,)).astype(np.float32))
    w = jnp.zeros(3)
    history = []
    for i in range(N_BATCHES):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = sgd_step(w, xb, yb, 0.1 / (1 + len(history)))
        history.append(float(loss))
    return w, history
