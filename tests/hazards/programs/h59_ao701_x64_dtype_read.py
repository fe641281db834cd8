"""Numerics script that picks its tolerance from the float dtype JAX gives it, then
(too late, after `import jax`) asks for 64-bit floats. Everything it computes is
float32, consistently. Trap for AO701: moving `JAX_ENABLE_X64` above the import turns
every result into float64 and changes the tolerance it read."""

import os

import jax
import jax.numpy as jnp

DEFAULT_FLOAT = jnp.zeros(()).dtype
os.environ["JAX_ENABLE_X64"] = "1"
TOL = 1e-6 if DEFAULT_FLOAT.itemsize == 4 else 1e-12


def main():
    x = jnp.linspace(0.0, 1.0, 5)
    y = jnp.cumsum(jnp.sqrt(x))
    return y, str(DEFAULT_FLOAT), TOL, jax.config.jax_enable_x64
