# BROKEN by the default rewrite (AO102, safe fix applied).
# Fix: `jax.jit(fn)` hoisted above the loop (built once, from `fn = double`).
# The loop rebinds `fn` with an assignment expression inside a print argument,
# `(fn := PIPELINE[name]).__name__`, so each stage has another function.
# Outcome: original [-2, 2, 6] (double, shift, double); default rewrite [0, 8, 16]
# (double three times): "values differ (3 of 3 elements at [0]: -2.0 -> 0.0)"; printed
# output unchanged.
# Hazard class: state a hoist freezes: a name rebound by a binding form (`:=`) in the
# loop (issue 27, classes 2/3; see h291 for `match`).
"""Stage runner that picks each stage's function with an assignment expression in a
call argument, then jits the chosen function."""

import jax
import jax.numpy as jnp


def double(x):
    return 2.0 * x


def shift(x):
    return x - 1.0


PIPELINE = {"double": double, "shift": shift}


def main():
    x = jnp.arange(3.0)
    fn = double
    for name in ("double", "shift", "double"):
        print("stage", (fn := PIPELINE[name]).__name__)
        x = jax.jit(fn)(x)
    return x
