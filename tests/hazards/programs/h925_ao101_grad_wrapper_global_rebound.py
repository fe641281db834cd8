"""A helper `sgd(w, x)` that returns `w - lr * jax.grad(penalised)(w, x)` is called in the
loop, and `penalised` reads the global `MU` that `increase_mu()` rebinds between calls
(a penalty method). Trap for AO101: jitting `sgd` bakes in the first `MU`, reached only
through the function handed to `jax.grad`."""

import jax
import jax.numpy as jnp

MU = 1.0


def penalised(w, x):
    constraint = jnp.sum(w) - 1.0
    return jnp.sum((w - x) ** 2) + MU * constraint**2


def sgd(w, x):
    return w - 0.01 * jax.grad(penalised)(w, x)


def increase_mu():
    global MU
    MU = MU * 2.0


def main():
    x = jnp.array([0.8, 0.6, 0.1])
    w = jnp.zeros(3)
    for _ in range(5):
        for _ in range(3):
            w = sgd(w, x)
        increase_mu()
    return w
