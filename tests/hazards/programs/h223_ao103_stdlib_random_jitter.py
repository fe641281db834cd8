"""Langevin-style loop whose jitter comes from the standard library's `random`
module (seeded): each step draws a new Python float in a helper."""

import random

import jax.numpy as jnp


def jitter(scale):
    return scale * random.gauss(0.0, 1.0)


def main():
    random.seed(223)
    x = jnp.array([1.0, -0.5, 0.25])
    for _ in range(10):
        drift = -0.3 * x
        x = x + 0.1 * drift + jitter(0.05)
    return x
