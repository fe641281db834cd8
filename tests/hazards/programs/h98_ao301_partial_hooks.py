"""Sensor fusion with hooks: before each step the loop runs a list of hooks, one of
them `functools.partial(np.copyto, reading)` that refills the host buffer from a
stream. Trap for AO301: the buffer is changed through a partial kept in a list and
called by a name the loop binds, never through `reading` itself."""

import functools

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def fuse(state, r):
    return 0.7 * state + 0.3 * jnp.sin(r)


def main():
    reading = np.zeros(4)
    stream = np.linspace(0.0, 2.0, 40).reshape(10, 4)
    hooks = []
    hooks.append(functools.partial(np.copyto, reading))
    state = jnp.zeros(4)
    for t in range(10):
        for hook in hooks:
            hook(stream[t])
        state = fuse(state, jnp.asarray(reading))
    return state
