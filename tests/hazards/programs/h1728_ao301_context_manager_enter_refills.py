"""`with sensor.capture():` in the loop: the context manager refills the sensor's
float64 frame before the body runs; the body transfers the frame, bound before the loop.
"""

import contextlib

import jax
import jax.numpy as jnp
import numpy as np


class Sensor:
    def __init__(self):
        self.frame = np.zeros(4, dtype=np.float64)
        self.t = 0

    @contextlib.contextmanager
    def capture(self):
        self.t += 1
        self.frame[:] = np.cos(np.arange(4) * 0.5 * self.t)
        yield
        self.frame[:] = 0.0


@jax.jit
def energy(x):
    return jnp.sum(x * x) + x[0]


def main():
    sensor = Sensor()
    frame = sensor.frame
    out = []
    for _ in range(3):
        with sensor.capture():
            out.append(energy(jnp.asarray(frame)))
    return jnp.stack(out)
