# BROKEN by the default rewrite (AO101, safe fix applied).
# Fix: `@jax.jit` added to `actuate`, which reads the module global GAIN.
# `handle()` declares `global GAIN` and rebinds it through a `match` capture pattern
# (`case ("gain", GAIN):`); the frozen-state check does not count the capture as a
# binding, so jit freezes GAIN = 1.0.
# Outcome: original rows [0.462, -0.762] x2, [0.245, -0.462] x2, [0.635, -0.905] x2;
# default rewrite keeps the first row: "values differ (8 of 12 elements at [2, 0]:
# 0.24491866 -> 0.46211717)".
# Hazard class: state jit freezes: a global rebound by a binding form (issue 27, class 2).
"""Controller whose gain is re-tuned by a command handler: `global GAIN` and a
`match` capture pattern (`case ("gain", GAIN):`) rebind the module global."""

import jax.numpy as jnp

GAIN = 1.0


def actuate(error):
    return jnp.tanh(GAIN * error)


def handle(command):
    global GAIN
    match command:
        case ("gain", GAIN):
            pass
        case _:
            pass


def main():
    error = jnp.array([0.5, -1.0])
    out = []
    for t in range(6):
        out.append(actuate(error))
        handle(("gain", 0.5 * t) if t % 2 else ("noop",))
    return jnp.stack(out)
