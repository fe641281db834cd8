"""Antenna array phases per Wi-Fi channel: the wavelength is
`C / (freq_mhz * 1_000_000)`, where the product (2.4e9 Hz) is exact for a Python int
but wraps around as a traced int32."""

import jax.numpy as jnp

C = 299_792_458.0


def steering(positions, freq_mhz):
    wavelength = C / (freq_mhz * 1_000_000)
    return jnp.cos(2.0 * jnp.pi * positions / wavelength)


def main():
    positions = jnp.array([0.0, 0.031, 0.062, 0.093])
    out = []
    for channel in range(3):
        out.append(steering(positions, 2412 + 25 * channel))
    return jnp.stack(out)
