"""Relaxation that refines in double precision from its fourth sweep on: a local helper
turns `jax_enable_x64` on, so the loop's transfer of the float64 table gives float32
rows first and float64 rows after; one transfer before the loop would keep float32."""

import jax
import jax.numpy as jnp
import numpy as np

TABLE = np.linspace(-1.0, 1.0, 6)


def refine(enabled):
    jax.config.update("jax_enable_x64", enabled)


def main():
    acc = jnp.zeros(6)
    kinds = []
    for sweep in range(5):
        if sweep == 3:
            refine(True)
        row = jnp.asarray(TABLE)
        acc = 0.9 * acc + row
        kinds.append(str(row.dtype))
    out = np.asarray(acc)
    refine(False)
    return out, kinds
