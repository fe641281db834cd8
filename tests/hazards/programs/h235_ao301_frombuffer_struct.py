"""Telemetry decoded from a raw byte buffer: `np.frombuffer` views a `bytearray`
that `struct.pack_into` refills with each packet; the decoded view is transferred."""

import struct

import jax.numpy as jnp
import numpy as np


def main():
    raw = bytearray(16)
    values = np.frombuffer(raw, dtype=np.float64)
    energy = []
    for t in range(6):
        struct.pack_into("<dd", raw, 0, 1.0 + t, 0.5 * t)
        energy.append(jnp.sum(jnp.asarray(values) ** 2))
    return jnp.stack(energy)
