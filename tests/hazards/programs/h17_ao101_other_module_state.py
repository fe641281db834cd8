"""Simulated annealing weights: the step reads SETTINGS["temperature"], imported from
another module of the project, whose `anneal()` (called in the loop) mutates that
dict in place. Trap for AO101: the mutation happens in a callee in another file; jit
freezes the temperature."""

import hazlib_config
import jax
import jax.numpy as jnp
from hazlib_config import SETTINGS


def boltzmann_weights(energies):
    return jax.nn.softmax(-energies / SETTINGS["temperature"])


def main():
    hazlib_config.reset()
    energies = jnp.linspace(0.0, 2.0, 8)
    history = []
    for _ in range(12):
        history.append(boltzmann_weights(energies))
        hazlib_config.anneal()
    return jnp.stack(history)
