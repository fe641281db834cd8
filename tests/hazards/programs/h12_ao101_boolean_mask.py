"""Robust running estimate: each step averages only the residuals inside a trust
band, selected with a boolean mask. Trap for AO101: boolean-mask indexing has a
data-dependent shape and raises under jit."""

import jax.numpy as jnp
import numpy as np


def trimmed_update(estimate, samples, band):
    residual = samples - estimate
    inliers = residual[jnp.abs(residual) < band]
    return estimate + 0.5 * jnp.mean(inliers)


def main():
    rng = np.random.default_rng(5)
    estimate = jnp.float32(0.0)
    for _ in range(12):
        samples = rng.normal(3.0, 1.0, size=64).astype(np.float32)
        samples[:4] = 50.0  # outliers
        estimate = trimmed_update(estimate, jnp.asarray(samples), 4.0)
    return estimate
