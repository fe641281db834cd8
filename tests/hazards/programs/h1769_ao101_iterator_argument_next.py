"""A helper pulls its next coefficient from an iterator argument (`next(coeffs)`)."""

import itertools

import jax.numpy as jnp


def blend(x, coeffs):
    c = next(coeffs)
    return x * c + (1 - c) * jnp.tanh(x)


def main():
    coeffs = itertools.cycle([0.1, 0.5, 0.9])
    x = jnp.linspace(-1.0, 1.0, 4)
    for _ in range(5):
        x = blend(x, coeffs)
    return x
