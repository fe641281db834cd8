"""A loop whose first window starts before the data: `x[(i - 1) * BATCH : i * BATCH]` at
`i = 0` is `x[-8:0]`, an empty batch in Python (its summed loss is 0, and the gradient
zero). Trap for AO103's batches taken by the traced index: `lax.dynamic_slice_in_dim`
would take a full batch of 8 rows there."""

import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 48
BATCH = 8
N_BATCHES = 6


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.sum((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


def main():
    rng = np.random.default_rng(6)
    x = jnp.asarray(rng.normal(size=(N_SAMPLES, 3)).astype(np.float32))
    y = jnp.asarray(rng.normal(size=(N_SAMPLES,)).astype(np.float32))
    w = jnp.zeros(3)
    losses = []
    for i in range(N_BATCHES):
        xb = x[(i - 1) * BATCH : i * BATCH]
        yb = y[(i - 1) * BATCH : i * BATCH]
        w, loss = sgd_step(w, xb, yb)
        losses.append(loss)
    return w, jnp.stack(losses)
