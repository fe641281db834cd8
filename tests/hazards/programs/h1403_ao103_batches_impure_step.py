"""A minibatch loop over a device-resident dataset whose step (not jitted) adds host
noise drawn from a module-level NumPy Generator on every call. Trap for AO103's
compiled batches: jitting the step, or scanning it, would draw the noise once, when
traced, and add the same numbers every step."""

import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 48
BATCH = 8
N_BATCHES = 6
NOISE = np.random.default_rng(7)


def noisy_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    grad = grad + 0.01 * NOISE.normal(size=3).astype(np.float32)
    return w - 0.1 * grad, loss


def main():
    rng = np.random.default_rng(3)
    x = jnp.asarray(rng.normal(size=(N_SAMPLES, 3)).astype(np.float32))
    y = jnp.asarray(rng.normal(size=(N_SAMPLES,)).astype(np.float32))
    w = jnp.zeros(3)
    losses = []
    for i in range(N_BATCHES):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = noisy_step(w, xb, yb)
        losses.append(loss)
    return w, jnp.stack(losses)
