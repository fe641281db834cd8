"""A loss for h843 that reads its module's global `WEIGHT`, which `anneal()` rebinds."""

import jax.numpy as jnp

WEIGHT = 1.0


def loss(w, x):
    return jnp.sum((w - x) ** 2) + WEIGHT * jnp.sum(w**2)


def anneal():
    global WEIGHT
    WEIGHT = WEIGHT * 4.0
