"""Logistic growth whose rate is reconfigured by key through the module's `__dict__`,
reached as `vars(importlib.import_module(__name__))` and kept in a global. Trap for
AO101: `grow` reads `RATE`; jit would freeze it at 0.8."""

import importlib

import jax.numpy as jnp

RATE = 0.8
_settings = vars(importlib.import_module(__name__))


def configure(**changes):
    for key, value in changes.items():
        _settings[key] = value


def grow(pop):
    return pop + RATE * pop * (1.0 - pop)


def main():
    pop = jnp.array([0.1, 0.2, 0.05])
    for year in range(24):
        pop = grow(pop)
        if year == 11:
            configure(RATE=2.9)
    return pop
