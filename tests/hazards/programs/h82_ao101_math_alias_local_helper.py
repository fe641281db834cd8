"""A decaying forcing term through a local helper on `math`, imported under an alias.
Trap for AO101: jitted, the Python float `t` is a tracer, and `m.cos` (`math.cos`)
needs a Python number."""

import math as m

import jax.numpy as jnp


def forcing(t):
    return m.cos(t) * 0.5


def step(x, t):
    return x + 0.01 * (forcing(t) - x)


def main():
    x = jnp.zeros(5)
    for i in range(50):
        x = step(x, 0.1 * i)
    return x
