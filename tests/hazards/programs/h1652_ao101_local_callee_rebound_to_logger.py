"""A step's local callee is bound twice: `scale = jax.jit(halve)` and, where the step is
asked to log, `scale = functools.partial(logged, 0.5)`, whose function prints every
weight it scales. Trap for AO101: the call `scale(w)` runs either binding, so the step
is not pure; jitted as a whole, `logged` runs once, at trace time, and prints a tracer
once instead of the weights at every step."""

import functools

import jax
import jax.numpy as jnp


def halve(w):
    return w * 0.5


def logged(factor, w):
    print("scaling", w)
    return w * factor


def update(w, g, log):
    scale = jax.jit(halve)
    if log:
        scale = functools.partial(logged, 0.5)
    return scale(w) - 0.1 * g


def main():
    w = jnp.arange(3.0)
    for _ in range(4):
        w = update(w, jnp.ones(3), True)
    return w
