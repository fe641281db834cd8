# BROKEN by the default rewrite (AO101, safe fix applied).
# Fix: `@jax.jit` added to `actuate`, which reads the module global GAIN.
# `retune()` declares `global GAIN` and rebinds it with an assignment expression inside
# a print, `(GAIN := 1.0 / (1 + t))`; jit freezes GAIN = 1.0.
# Outcome: original rows [0.462, -0.762] x2, [0.245, -0.462], [0.165, -0.322]; default
# rewrite keeps the first row: "values differ (4 of 8 elements at [2, 0]: 0.24491866 ->
# 0.46211717)".
# Hazard class: state jit freezes: a global rebound by a binding form (issue 27, class 2;
# see h289 for `match`).
"""Controller whose gain is updated by a handler with `global GAIN` and an assignment
expression in a log line."""

import jax.numpy as jnp

GAIN = 1.0


def actuate(error):
    return jnp.tanh(GAIN * error)


def retune(t):
    global GAIN
    print("gain now", (GAIN := 1.0 / (1 + t)))


def main():
    error = jnp.array([0.5, -1.0])
    out = []
    for t in range(4):
        out.append(actuate(error))
        retune(t)
    return jnp.stack(out)
