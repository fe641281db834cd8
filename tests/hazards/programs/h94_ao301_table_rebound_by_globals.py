"""Calibration table swapped every step through the module namespace: `recalibrate()`
assigns `globals()["TABLE"]` a new NumPy array. Trap for AO301: hoisting
`jnp.asarray(TABLE)` before the loop would transfer the first table only."""

import jax.numpy as jnp
import numpy as np

TABLE = np.ones(4)


def recalibrate(step):
    globals()["TABLE"] = np.linspace(0.0, 1.0, 4) * step


def main():
    readings = jnp.arange(4.0)
    out = []
    for step in range(5):
        recalibrate(step)
        table = jnp.asarray(TABLE)
        out.append(readings * table)
    return jnp.stack(out)
