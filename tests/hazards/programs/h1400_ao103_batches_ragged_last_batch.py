"""A loop over minibatch indices of a NumPy dataset whose size (50) is not a multiple of
the batch (8): `range(N_BATCHES)` with `N_BATCHES = 7` takes a last batch of 2 samples.
Trap for AO103's batches taken by the traced index: `lax.dynamic_slice_in_dim` would
shift the last window back to rows 42-49, a full batch of other samples, and the loss
and the weights would change."""

import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 50
BATCH = 8
N_BATCHES = 7  # ceil(N_SAMPLES / BATCH): the last batch is short


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


def main():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(N_SAMPLES, 3)).astype(np.float32)
    y = rng.normal(size=(N_SAMPLES,)).astype(np.float32)
    w = jnp.zeros(3)
    losses = []
    for i in range(N_BATCHES):
        xb = jnp.asarray(x[i * BATCH : (i + 1) * BATCH])
        yb = jnp.asarray(y[i * BATCH : (i + 1) * BATCH])
        w, loss = sgd_step(w, xb, yb)
        losses.append(loss)
    return w, jnp.stack(losses)
