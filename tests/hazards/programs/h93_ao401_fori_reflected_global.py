"""Relaxation sweep whose strength is set through the module's `__dict__`, reached as
`sys.modules[__name__].__dict__`. Trap for AO401: its `lax.fori_loop` form would jit
`relax` whole, freezing `STRENGTH` at 1.0."""

import sys

import jax.numpy as jnp

STRENGTH = 1.0


def relax(grid):
    out = jnp.zeros(8)
    for i in range(1, 7):
        out = out.at[i].set(0.5 * STRENGTH * (grid[i - 1] + grid[i + 1]))
    return out


def set_strength(value):
    sys.modules[__name__].__dict__["STRENGTH"] = value


def main():
    grid = jnp.linspace(0.0, 1.0, 8)
    first = relax(grid)
    set_strength(0.5)
    return first, relax(grid)
