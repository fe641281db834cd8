"""An eager training loop in `main` that declares `global LR` and halves it at the end of
each iteration; the update helper reads `LR`. Trap for AO103: a jitted step made of the
gradient and update statements bakes in the learning rate of its first trace."""

import jax
import jax.numpy as jnp

LR = 0.4


def update(w, g):
    return w - LR * g


def main():
    global LR
    LR = 0.4
    target = jnp.array([1.0, -2.0, 0.5])
    w = jnp.zeros(3)
    for _ in range(5):
        g = jax.grad(lambda v: jnp.sum((v - target) ** 2))(w)
        w = update(w, g)
        LR = LR * 0.5
    return w
