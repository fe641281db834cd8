"""A bfloat16 buffer written with Python floats that bfloat16 rounds."""

import jax.numpy as jnp


def quantize_ramp(n):
    buf = jnp.zeros((n,), dtype=jnp.bfloat16)
    for i in range(n):
        buf = buf.at[i].set(1.0 + i / 300.0)
    return buf


def main():
    out = quantize_ramp(8)
    return out, out.astype(jnp.float32).sum()
