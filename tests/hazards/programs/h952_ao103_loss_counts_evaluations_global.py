"""A loss that counts its evaluations in a module global (`EVALS += 1` under `global`),
reached through `jax.grad(loss)` in an eager loop; the count is returned. Trap for
AO103: the counter is incremented by tracing, once, when the step is compiled."""

import jax
import jax.numpy as jnp

EVALS = 0


def loss(w):
    global EVALS
    EVALS += 1
    return jnp.sum((w - 2.0) ** 2)


def main():
    global EVALS
    EVALS = 0
    w = jnp.zeros(2)
    for _ in range(4):
        g = jax.grad(loss)(w)
        w = w - 0.25 * g
        w = w * 0.99
    return w, EVALS
