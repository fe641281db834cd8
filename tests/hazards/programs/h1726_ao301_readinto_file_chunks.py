"""A reader fills one preallocated float64 buffer from a file with `readinto` each step;
the loop transfers that buffer.
"""

import os
import tempfile

import jax.numpy as jnp
import numpy as np


def main():
    data = np.arange(24, dtype=np.float64) / 7.0
    path = os.path.join(tempfile.mkdtemp(), "chunks.bin")
    data.tofile(path)
    buf = np.empty(6, dtype=np.float64)
    total = []
    with open(path, "rb") as f:
        for _ in range(4):
            f.readinto(buf)
            chunk = jnp.asarray(buf)
            total.append(jnp.mean(jnp.sin(chunk)))
    os.remove(path)
    return jnp.stack(total)
