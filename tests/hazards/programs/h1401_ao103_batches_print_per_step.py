"""A minibatch loop over a device-resident dataset that prints each step's loss. Trap for
AO103's whole-loop scan of the batches: the print is host work of every iteration (a
scan would print nothing, or once when traced); only the step before it may be
compiled, and the loop must print the same lines."""

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
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.normal(size=(N_SAMPLES, 3)).astype(np.float32))
    y = jnp.asarray(rng.normal(size=(N_SAMPLES,)).astype(np.float32))
    w = jnp.zeros(3)
    for i in range(N_BATCHES):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = sgd_step(w, xb, yb)
        print(f"step {i}: {float(loss):.5f}")
    return w
