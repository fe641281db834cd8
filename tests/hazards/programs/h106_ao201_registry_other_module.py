"""Fit that checkpoints its starting point in a registry of another module of the
project: `hazlib_registry.checkpoint` keeps the array in a module dict and returns it
through `jnp.asarray`, which gives back the same buffer. Trap for AO201/AO103: donating
`p` deletes the buffer the registry returns after the loop."""

import hazlib_registry
import jax.numpy as jnp


def step(p):
    return p * 0.9 + 0.05


def main():
    p = hazlib_registry.checkpoint("init", jnp.linspace(0.0, 1.0, 4))
    for _ in range(20):
        p = step(p)
    return p, hazlib_registry.restore("init")
