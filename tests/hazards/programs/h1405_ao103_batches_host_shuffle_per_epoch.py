"""Minibatches drawn through a permutation that NumPy re-draws on the host every epoch
(`rng.permutation`), the dataset on the device. Trap for AO103's batches taken on the
device: the index array is host data that changes every epoch (drawn by the host
Generator, in this order); the rewrite must keep exactly these draws, so the same
samples go into the same steps."""

import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 48
BATCH = 8
N_BATCHES = 6
EPOCHS = 3


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


def main():
    rng = np.random.default_rng(5)
    x = jnp.asarray(rng.normal(size=(N_SAMPLES, 3)).astype(np.float32))
    y = jnp.asarray(rng.normal(size=(N_SAMPLES,)).astype(np.float32))
    w = jnp.zeros(3)
    epoch_loss = []
    for _epoch in range(EPOCHS):
        perm = rng.permutation(N_SAMPLES)
        losses = []
        for i in range(N_BATCHES):
            idx = perm[i * BATCH : (i + 1) * BATCH]
            w, loss = sgd_step(w, x[idx], y[idx])
            losses.append(loss)
        epoch_loss.append(jnp.mean(jnp.stack(losses)))
    return w, jnp.stack(epoch_loss)
