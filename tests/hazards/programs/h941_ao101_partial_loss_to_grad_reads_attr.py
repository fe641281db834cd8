"""A proximal step `prox_step(w, x)` computing `jax.grad(objective)(w, x)`, where
`objective` reads `CONFIG.rho`, an attribute of a module-level config object the outer
loop raises (augmented Lagrangian). Trap for AO101: jitting `prox_step` keeps the first
`rho`."""

import types

import jax
import jax.numpy as jnp

CONFIG = types.SimpleNamespace(rho=1.0)


def objective(w, x):
    return jnp.sum((w - x) ** 2) + CONFIG.rho * (jnp.sum(w) - 1.0) ** 2


def prox_step(w, x):
    return w - 0.02 * jax.grad(objective)(w, x)


def main():
    x = jnp.array([0.9, 0.4, 0.2])
    w = jnp.zeros(3)
    for _ in range(4):
        for _ in range(3):
            w = prox_step(w, x)
        CONFIG.rho = CONFIG.rho * 2.0
    return w
