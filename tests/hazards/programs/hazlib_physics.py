"""Physics helpers of the hazard programs' small "project" (imported by h18).

The drag table is measured data, looked up with NumPy on the host.
"""

import numpy as np

SPEEDS = np.array([0.0, 5.0, 10.0, 20.0, 40.0], dtype=np.float32)
DRAG_COEFFICIENTS = np.array([0.0, 0.3, 0.45, 0.5, 0.52], dtype=np.float32)


def drag_coefficient(speed):
    return np.interp(np.asarray(speed), SPEEDS, DRAG_COEFFICIENTS).astype(np.float32)
