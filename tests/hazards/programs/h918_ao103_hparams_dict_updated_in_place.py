"""An eager loop where the loss reads `HPARAMS["l2"]` from a module dict; the loop
decays it in place, `HPARAMS["l2"] *= 0.5`, after the device work. Trap for AO103: a
compiled step reads the dict at trace time only."""

import jax
import jax.numpy as jnp

HPARAMS = {"l2": 1.0, "lr": 0.2}


def objective(w, x, y):
    return jnp.mean((x @ w - y) ** 2) + HPARAMS["l2"] * jnp.sum(w**2)


def main():
    x = jnp.array([[1.0, 1.0], [0.0, 1.0]])
    y = jnp.array([2.0, 1.0])
    w = jnp.zeros(2)
    for _ in range(6):
        g = jax.grad(objective)(w, x, y)
        w = w - HPARAMS["lr"] * g
        HPARAMS["l2"] *= 0.5
    return w
