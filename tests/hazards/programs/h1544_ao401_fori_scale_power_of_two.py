"""Octave scales `2 ** i` written per row; Python ints exceed int32 past 31 octaves."""

import jax.numpy as jnp


def octave_scales():
    scales = jnp.zeros((40,))
    for i in range(40):
        scales = scales.at[i].set(2**i / 1e9)
    return scales


def main():
    return octave_scales()
