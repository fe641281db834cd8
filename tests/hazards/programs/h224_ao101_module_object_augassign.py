"""Simulated annealing temperature held as a module global and cooled through the
module object: `this = sys.modules[__name__]` then `this.TEMPERATURE *= 0.8`."""

import sys

import jax.numpy as jnp

TEMPERATURE = 2.0
this = sys.modules[__name__]


def boltzmann(energy):
    return jnp.exp(-energy / TEMPERATURE)


def main():
    energy = jnp.array([0.5, 1.0, 2.0])
    probs = []
    for _ in range(6):
        probs.append(boltzmann(energy))
        this.TEMPERATURE *= 0.8
    return jnp.stack(probs)
