"""A minibatch loop over a device-resident dataset that counts the samples seen in a
Python int, carried from step to step and returned. Trap for AO103's whole-loop scan of
the batches: a scan would carry the count as an int32 array, so the program would
return an array where it returned a Python int."""

import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 48
BATCH = 8
N_BATCHES = 6


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


def main():
    rng = np.random.default_rng(4)
    x = jnp.asarray(rng.normal(size=(N_SAMPLES, 3)).astype(np.float32))
    y = jnp.asarray(rng.normal(size=(N_SAMPLES,)).astype(np.float32))
    w = jnp.zeros(3)
    seen = 0
    losses = []
    for i in range(N_BATCHES):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = sgd_step(w, xb, yb)
        seen = seen + BATCH
        losses.append(loss)
    return w, jnp.stack(losses), seen
