# BROKEN by the default rewrite (AO102, safe fix applied).
# Fix: `jax.jit(fn)` hoisted above the loop (built once from the first `fn`).
# The loop rebinds `fn` through a `match` capture (`case ("map", fn):`), so each stage
# has another function.
# Outcome: original [-2, 2, 6] (double, shift, double); default rewrite [0, 8, 16]
# (double three times): "values differ (3 of 3 elements at [0]: -2.0 -> 0.0)".
# Hazard class: state a hoist freezes: a name rebound by a binding form in the loop
# (issue 27, classes 2/3).
"""Pipeline whose stages are described by tuples; a `match` captures each stage's
function (`case ("map", fn):`) and the loop runs `jax.jit(fn)` on the data."""

import jax
import jax.numpy as jnp


def double(x):
    return 2.0 * x


def shift(x):
    return x - 1.0


STAGES = [("map", double), ("map", shift), ("map", double)]


def main():
    x = jnp.arange(3.0)
    fn = double
    for stage in STAGES:
        match stage:
            case ("map", fn):
                pass
        x = jax.jit(fn)(x)
    return x
