# BROKEN by the default rewrite (AO103, safe fix applied: the guarded whole-loop scan).
# Fix: the loop becomes `acc, inc = _main_loop(acc, inc, scale)` (`_main_scan`, a
# jitted `lax.scan`, or the loop of jitted `_main_step`), with the local `scale` passed
# as an argument.
# `scale >> 28` (= 4096) is exact on the Python int 2**40; passed to a jitted function
# the int does not fit in int32.
# Outcome: original [0.15991211, 0.31884766, 0.47827148]; default rewrite crashes:
# "OverflowError: An overflow was encountered while parsing an argument to a jitted
# computation, whose argument path is scale. Got <class 'int'> with value 1099511627776".
# Hazard class: code put under a trace that cannot be traced: Python int arithmetic
# out of int32 range (issue 27, class 1), on a loop-invariant local.
"""Fixed-point accumulator: increments are rounded at a resolution given as a local
Python int, `2**40 >> 28` computed exactly in Python each step."""

import jax.numpy as jnp


def main():
    scale = 2**40
    acc = jnp.zeros(3)
    inc = jnp.array([0.01, 0.02, 0.03])
    for _ in range(10):
        acc = acc + jnp.round(inc * (scale >> 28)) / 4096.0
        inc = inc * 1.1
    return acc
