"""A camera model whose `gain` property setter re-renders the frame buffer in place;
the loop only assigns `cam.gain = ...` and transfers `frame`, read once before."""

import jax.numpy as jnp
import numpy as np


class Camera:
    def __init__(self):
        self.raw = np.linspace(0.0, 1.0, 6)
        self.frame = np.zeros(6)
        self._gain = 1.0

    @property
    def gain(self):
        return self._gain

    @gain.setter
    def gain(self, value):
        self._gain = value
        np.multiply(self.raw, value, out=self.frame)


def main():
    cam = Camera()
    frame = cam.frame
    means = []
    for t in range(5):
        cam.gain = 0.5 + t
        means.append(jnp.mean(jnp.asarray(frame)))
    return jnp.stack(means)
