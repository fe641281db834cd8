"""Simulation loop whose helper logs the step's energy at DEBUG level to stdout; the
helper is called by the loop body before the update."""

import logging
import sys

import jax.numpy as jnp

log = logging.getLogger("sim")
log.addHandler(logging.StreamHandler(sys.stdout))
log.setLevel(logging.DEBUG)


def energy(v):
    e = 0.5 * jnp.sum(v**2)
    log.debug("energy computed")
    return e


def main():
    v = jnp.array([1.0, 2.0, -1.0])
    total = jnp.zeros(())
    for _ in range(5):
        total = total + energy(v)
        v = v * 0.9
    return v, total
