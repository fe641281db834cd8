"""A simulated camera of the hazard programs' small "project" (imported by h39).

Like a driver with a DMA buffer, the module owns one frame and refills it on every
`capture()`.
"""

import numpy as np

FRAME = np.zeros(5)
_CLOCK = [0]


def reset():
    _CLOCK[0] = 0
    FRAME[:] = 0.0


def capture():
    _CLOCK[0] += 1
    FRAME[:] = np.sin(0.3 * _CLOCK[0] + np.arange(FRAME.size))
