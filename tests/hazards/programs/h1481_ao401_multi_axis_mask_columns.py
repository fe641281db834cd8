"""Decaying the columns of a weight matrix whose age passed the step, with
`w.at[:, old].multiply(0.5)` where `old` is a boolean mask. Trap for AO401's multi-axis
helper: passed to a jitted helper, the mask becomes a tracer and boolean indexing of a
tracer raises (its shape is not static)."""

import jax.numpy as jnp


def decay(steps):
    w = jnp.ones((4, 5))
    age = jnp.array([0, 3, 1, 4, 2])
    for t in range(steps):
        old = age < t
        w = w.at[:, old].multiply(0.5)
    return w


def main():
    return decay(4)
