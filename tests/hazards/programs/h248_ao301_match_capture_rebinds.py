# BROKEN by the default rewrite (AO301, safe fix applied).
# Fix: `jnp.asarray(table)` in `out.append(...)` hoisted above the loop as
#   `table_dev = jax.device_put(table)`, the loop then reads `table_dev`.
# The loop rebinds `table` through a `match` capture pattern
# (`case ("calib", table):`), which the invariance check does not count as a binding.
# Outcome: original [[2,2],[4,1],[4,1],[-2,6],[-2,6]]; default rewrite
#   [[2,2],[2,2],...] ("values differ (8 of 10 elements at [1, 0]: 4.0 -> 2.0)").
# Hazard class: host data changed behind a hoist (issue 27, class 3), a binding form.
"""Message-driven controller: a `match` statement captures a new calibration table
from "calib" messages (`case ("calib", table):` rebinds `table`); every message
transfers the current table."""

import jax.numpy as jnp
import numpy as np

MESSAGES = [
    ("tick", None),
    ("calib", np.array([2.0, 0.5])),
    ("tick", None),
    ("calib", np.array([-1.0, 3.0])),
    ("tick", None),
]


def main():
    table = np.array([1.0, 1.0])
    out = []
    for message in MESSAGES:
        match message:
            case ("calib", table):
                pass
            case _:
                pass
        out.append(jnp.asarray(table) * 2.0)
    return jnp.stack(out)
