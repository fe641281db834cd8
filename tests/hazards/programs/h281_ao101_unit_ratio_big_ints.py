# BROKEN by the default rewrite (AO101, safe fix applied).
# Fix: `@jax.jit` added to `rescale` (no static_argnames).
# `from_rate` and `to_rate` are Python ints used only in Python arithmetic
# (`from_rate // to_rate` = 1000, exact); jitted they become traced arguments, and
# 10**12 does not fit in int32.
# Outcome: original [[1, 1, 1.5], [1.5, 2, 3], ...]; default rewrite crashes:
# "OverflowError: An overflow was encountered while parsing an argument to a jitted
# computation, whose argument path is from_rate. Got <class 'int'> with value
# 1000000000000".
# Hazard class: code put under a trace that cannot be traced: Python int arithmetic
# out of int32 range (issue 27, class 1), on an argument, not the loop index.
"""Unit conversion with the rates passed as Python ints (ticks per second): the
helper divides them in Python, `from_rate // to_rate`, exactly. Passed to a jitted
function, a rate of 10**12 does not fit in int32."""

import jax.numpy as jnp

PICO, NANO = 10**12, 10**9


def rescale(ticks, from_rate, to_rate):
    return jnp.round(ticks / (from_rate // to_rate)) * 0.5


def main():
    ticks = jnp.array([1500.0, 2250.0, 3000.0])
    out = []
    for k in range(4):
        out.append(rescale(ticks * (k + 1), PICO, NANO))
    return jnp.stack(out)
