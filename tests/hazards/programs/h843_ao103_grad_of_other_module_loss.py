"""An eager loop stepping `jax.grad(hazlib_frozen_loss.loss)`, a loss of another module
that reads that module's global `WEIGHT`, which `hazlib_frozen_loss.anneal()` rebinds
after each step. Trap for AO103: a compiled step keeps the first weight."""

import hazlib_frozen_loss
import jax
import jax.numpy as jnp


def main():
    x = jnp.array([1.0, -2.0, 0.5])
    w = jnp.zeros(3)
    for _ in range(4):
        g = jax.grad(hazlib_frozen_loss.loss)(w, x)
        w = w - 0.05 * g
        hazlib_frozen_loss.anneal()
    return w
