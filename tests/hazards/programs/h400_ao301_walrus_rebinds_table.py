"""A sensor loop re-reads its calibration table with an assignment expression inside
the condition (`if (table := ...) is not None`): the table the loop transfers is
rebound on some steps, so its transfer is not loop-invariant."""

import jax.numpy as jnp
import numpy as np

READINGS = [None, np.array([2.0, 0.5]), None, None, np.array([-1.0, 3.0]), None]


def main():
    table = np.array([1.0, 1.0])
    out = []
    for i, reading in enumerate(READINGS):
        if (fresh := reading) is not None and (table := fresh * (i + 1)) is not None:
            pass
        out.append(jnp.asarray(table) * 2.0)
    return jnp.stack(out)
