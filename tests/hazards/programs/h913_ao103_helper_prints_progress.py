"""An eager loop whose helper reports progress through `emit`, a module-level
`functools.partial(print, "grad norm")`. Trap for AO103: compiled into one jitted step,
the helper prints a tracer once at trace time instead of a number every iteration."""

import functools

import jax.numpy as jnp

emit = functools.partial(print, "grad norm")


def clipped(g, limit):
    norm = jnp.linalg.norm(g)
    emit(norm)
    return g * jnp.minimum(1.0, limit / norm)


def main():
    w = jnp.array([3.0, -4.0])
    for _ in range(4):
        g = 2.0 * w
        w = w - 0.2 * clipped(g, 2.0)
    return w
