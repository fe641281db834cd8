"""A training function registers a final report on a `contextlib.ExitStack` with the
weights of its first step, `stack.callback(report, "first", w)`, which runs when the
`with` block ends. Trap for AO201: the stack holds that `w`, which later steps would
donate, and the report reads it at exit."""

import contextlib

import jax
import jax.numpy as jnp


def report(tag, w):
    print(f"{tag}: {float(jnp.sum(w)):.6f}")


@jax.jit
def step(w, g):
    return w - 0.1 * g * w


def main():
    g = jnp.array([1.0, 2.0, 3.0])
    with contextlib.ExitStack() as stack:
        w = jnp.ones(3)
        for i in range(5):
            w = step(w, g)
            if i == 0:
                stack.callback(report, "first", w)
    return w
