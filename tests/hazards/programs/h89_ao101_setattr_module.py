"""Heat equation whose time step is a module constant changed through the module
object: `set_param` calls `setattr(sys.modules[__name__], name, value)` with the name
as an argument. Trap for AO101: `heat` reads `DT`; jit would freeze it at 0.1
(issue 27, x09)."""

import sys

import jax.numpy as jnp

DT = 0.1
_this = sys.modules[__name__]


def set_param(name, value):
    setattr(_this, name, value)


def heat(u):
    lap = jnp.roll(u, 1) - 2.0 * u + jnp.roll(u, -1)
    return u + DT * lap


def main():
    u = jnp.zeros(16).at[8].set(1.0)
    for k in range(40):
        u = heat(u)
        if k == 19:
            set_param("DT", 0.4)
    return u
