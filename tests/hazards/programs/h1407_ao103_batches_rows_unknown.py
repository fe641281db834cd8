"""A minibatch loop over a dataset handed to the training function, whose length
autoopt cannot see: `main` passes 44 samples, 5 whole batches of 8 and a ragged sixth
of 4. Trap for AO103's batches taken by the traced index: without the number of rows
proven, the last window may run past the end, where `lax.dynamic_slice_in_dim` shifts
it back to other rows."""

import jax
import jax.numpy as jnp
import numpy as np

BATCH = 8
N_BATCHES = 6


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


def train(x, y):
    w = jnp.zeros(3)
    losses = []
    for i in range(N_BATCHES):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = sgd_step(w, xb, yb)
        losses.append(loss)
    return w, jnp.stack(losses)


def main():
    rng = np.random.default_rng(8)
    n = int(rng.integers(44, 45))
    return train(jnp.asarray(rng.normal(size=(n, 3)), jnp.float32), jnp.ones(n))
