"""A step binds a local named like a pure function of the module, `halve =
functools.partial(logged, 0.5)`, and calls `halve(w)`. Trap for AO101: the local shadows
the module's `def halve`, so the call runs `logged`, which prints every weight it scales;
jitted as a whole, the step prints a tracer once instead of the weights at every step."""

import functools

import jax.numpy as jnp


def halve(w):
    return w * 0.5


def logged(factor, w):
    print("scaling", w)
    return w * factor


def update(w, g):
    halve = functools.partial(logged, 0.5)
    return halve(w) - 0.1 * g


def main():
    w = jnp.arange(3.0)
    for _ in range(4):
        w = update(w, jnp.ones(3))
    return w
