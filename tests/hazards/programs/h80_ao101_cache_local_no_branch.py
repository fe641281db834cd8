"""A gain cached per level by `functools.cache`, in the same module, with no branch
on the level. Trap for AO101: jitted, `level` is a tracer, which the cache hashes
(TypeError: unhashable)."""

import functools

import jax.numpy as jnp


@functools.cache
def gain(level):
    return 1.0 + 0.05 * level


def amplify(x, level):
    return jnp.tanh(x * gain(level))


def main():
    x = jnp.linspace(-1.0, 1.0, 8)
    for i in range(30):
        x = amplify(x, i % 4)
    return x
