"""A simulation clock object whose `+=` (`__iadd__`) advances a sensor reading held in
a float64 buffer; the loop transfers the reading.
"""

import jax
import jax.numpy as jnp
import numpy as np

READING = np.zeros(2, dtype=np.float64)


class Clock:
    def __init__(self):
        self.t = 0.0

    def __iadd__(self, dt):
        self.t += dt
        READING[:] = [np.sin(self.t), np.cos(self.t)]
        return self


@jax.jit
def control(r):
    return -0.5 * r


def main():
    clock = Clock()
    actions = []
    for _ in range(4):
        clock += 0.7
        actions.append(control(jnp.asarray(READING)))
    return jnp.stack(actions)
