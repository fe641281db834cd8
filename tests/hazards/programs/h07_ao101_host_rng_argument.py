"""Data augmentation with a NumPy Generator passed in as an argument: a helper calls a
method of that non-array argument (`rng.normal`). Trap for AO101: under jit the
Generator is not a JAX type (and the noise would be frozen)."""

import jax.numpy as jnp
import numpy as np


def pixel_noise(shape, rng):
    return rng.normal(scale=0.05, size=shape).astype(np.float32)


def augment(batch, rng):
    jitter = pixel_noise(batch.shape, rng)
    return jnp.clip(batch + jnp.asarray(jitter), 0.0, 1.0)


def main():
    rng = np.random.default_rng(3)
    images = jnp.linspace(0.0, 1.0, 48).reshape(4, 12)
    total = jnp.zeros_like(images)
    for _ in range(10):
        total = total + augment(images, rng)
    return total / 10
