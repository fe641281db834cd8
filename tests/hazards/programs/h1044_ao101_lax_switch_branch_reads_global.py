"""A curriculum picks one of three losses with `jax.lax.switch(stage, LOSSES, r)`; the
third branch reads the module global `MARGIN`, raised by the loop as training goes on.
Trap for AO101: jitted, each branch is traced once and `MARGIN` is frozen."""

import jax
import jax.numpy as jnp

MARGIN = 0.1


def l2(r):
    return jnp.mean(r**2)


def l1(r):
    return jnp.mean(jnp.abs(r))


def hinge(r):
    return jnp.mean(jnp.maximum(jnp.abs(r) - MARGIN, 0.0) ** 2)


LOSSES = (l2, l1, hinge)


def update(w, stage, x, y):
    g = jax.grad(lambda v: jax.lax.switch(stage, LOSSES, x @ v - y))(w)
    return w - 0.2 * g


def main():
    global MARGIN
    x = jnp.array([[1.0, 2.0], [2.0, 1.0], [1.0, -1.0]])
    y = jnp.array([1.0, 0.5, -1.0])
    w = jnp.zeros(2)
    for i in range(9):
        w = update(w, jnp.asarray(2 if i >= 3 else i % 2), x, y)
        MARGIN = MARGIN + 0.1
    return w
