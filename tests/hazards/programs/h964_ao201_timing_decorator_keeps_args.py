"""A jitted step wrapped by a profiling decorator that records every call's arguments
(`CALLS.append(args)`) before calling through. Trap for AO201: the decorator keeps the
params handed to the step; donating them deletes the recorded arrays, read after
training."""

import functools

import jax
import jax.numpy as jnp

CALLS = []


def recorded(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        CALLS.append(args)
        return fn(*args)

    return wrapper


@recorded
@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    CALLS.clear()
    params = jnp.ones(2)
    for k in range(3):
        params = step(params, jnp.full(2, float(k)))
    return params, [args[0] for args in CALLS]
