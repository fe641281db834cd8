"""Quantization study: error of rounding weights to m mantissa bits, `lax.reduce_precision`."""

import jax
import jax.numpy as jnp


def quantization_error(w, mantissa_bits):
    q = jax.lax.reduce_precision(w, exponent_bits=8, mantissa_bits=mantissa_bits)
    return jnp.max(jnp.abs(q - w))


def main():
    w = jax.random.normal(jax.random.PRNGKey(1), (64,))
    errors = []
    for m in range(2, 12, 3):
        errors.append(quantization_error(w, m))
    return errors
