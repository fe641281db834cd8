"""Stochastic gradient Langevin dynamics for the posterior of a logistic regression.

Negative for a whole-loop scan: the injected noise is drawn on the host in the loop body
(`rng.normal(...)`), so every iteration gets a fresh draw; traced once into a scan it would
be one frozen draw reused at every step.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 400
DIM = 5
STEP = 1e-3
N_ITERS = 150


def log_posterior(w, x, y):
    logits = x @ w
    return jnp.sum(y * logits - jnp.logaddexp(0.0, logits)) - 0.5 * jnp.sum(w**2)


grad_log_posterior = jax.grad(log_posterior)


def main():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(N_SAMPLES, DIM)).astype(np.float32)
    w_true = np.array([1.0, -2.0, 0.5, 0.0, 1.5], np.float32)
    y = (rng.random(N_SAMPLES) < 1 / (1 + np.exp(-x @ w_true))).astype(np.float32)
    x, y = jnp.asarray(x), jnp.asarray(y)

    w = jnp.zeros(DIM)
    samples = []
    for _ in range(N_ITERS):
        noise = rng.normal(size=DIM).astype(np.float32)
        w = w + 0.5 * STEP * grad_log_posterior(w, x, y) + np.sqrt(STEP) * noise
        samples.append(w)
    samples = jnp.stack(samples)
    return {"samples": samples, "posterior_mean": samples[50:].mean(axis=0)}


if __name__ == "__main__":
    print(main())
