"""Sensor buffers kept in a dict; the loop scales the array through a local name
obtained from `dict.values()`, and transfers `buffers["imu"]`."""

import jax.numpy as jnp
import numpy as np


def main():
    buffers = {"imu": np.ones(3), "gps": np.zeros(2)}
    out = []
    for t in range(5):
        for buf in buffers.values():
            buf *= 0.5
        out.append(jnp.asarray(buffers["imu"]).sum() + t)
    return jnp.stack(out)
