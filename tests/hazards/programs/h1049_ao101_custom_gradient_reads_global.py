"""Gradient reversal for domain adaptation written with `jax.custom_gradient`: the
backward function multiplies by `-ALPHA`, where `ALPHA` is a module global ramped up
over training (the DANN schedule). Trap for AO101: jitting the step freezes `ALPHA`
inside the backward closure."""

import jax
import jax.numpy as jnp

ALPHA = 0.0


@jax.custom_gradient
def grad_reverse(x):
    def bwd(g):
        return (-ALPHA * g,)

    return x, bwd


def loss(w, x, d):
    feat = jnp.tanh(x @ w)
    return jnp.mean((grad_reverse(feat).sum(axis=1) - d) ** 2) + jnp.mean(feat**2)


def step(w, x, d):
    return w - 0.1 * jax.grad(loss)(w, x, d)


def main():
    global ALPHA
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    d = jnp.array([0.0, 1.0, 0.0, 1.0])
    w = jnp.full((3, 2), 0.2)
    for i in range(8):  # noqa: B007
        w = step(w, x, d)
        ALPHA = min(1.0, ALPHA + 0.25)
    return w
