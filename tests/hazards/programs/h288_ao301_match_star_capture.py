# BROKEN by the default rewrite (AO301, safe fix applied).
# Fix: `jnp.asarray(values)` hoisted above the loop as `values_dev = jnp.asarray(values)`.
# The loop rebinds `values` through a `match` star capture (`case ["data", *values]:`).
# Outcome: original [3, 3, 8, 8]; default rewrite [0, 0, 0, 0]: "values differ (4 of
# 4 elements at [0]: 3.0 -> 0.0)".
# Hazard class: host data changed behind a hoist (issue 27, class 3), a binding form
# (see also h248, the plain capture).
"""Packets of readings: a `match` with a star pattern (`case ["data", *values]`)
captures the payload list; the current payload is transferred every packet."""

import jax.numpy as jnp

PACKETS = [["data", 1.0, 2.0], ["noop"], ["data", 3.0, 5.0], ["noop"]]


def main():
    values = [0.0, 0.0]
    out = []
    for packet in PACKETS:
        match packet:
            case ["data", *values]:
                pass
            case _:
                pass
        out.append(jnp.asarray(values).sum())
    return jnp.stack(out)
