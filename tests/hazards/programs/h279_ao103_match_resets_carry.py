# BROKEN by the default rewrite (AO103, safe fix applied: the step form).
# Fix: the two leading lines become `state = _main_step(state, k)` with `_main_step`
# jitted and `donate_argnames=("state",)`.
# The trailing `match command: case ("reset", state):` rebinds the carry to the array
# held in the module-level COMMANDS list; the next step donates (deletes) it, and
# `COMMANDS[3][1]` is returned.
# Outcome: original returns ([4.286875, 4.634297], [5., 5.]); default rewrite crashes:
# "jax.errors.JaxRuntimeError: INVALID_ARGUMENT: BlockHostUntilReady() called on deleted
# or donated buffer".
# Hazard class: aliases the donation proof misses (issue 27, class 4): a carry rebound
# by a `match` capture to a value a container keeps.
"""Integrator driven by a command list: a `match` on the command may capture a new
state (`case ("reset", state):`), rebinding the carried state mid-run; the reset
target is reported with the result."""

import jax.numpy as jnp

COMMANDS = [("run", None)] * 3 + [("reset", jnp.array([5.0, 5.0]))] + [("run", None)] * 3


def main():
    state = jnp.array([1.0, 0.0])
    k = jnp.array([0.5, 0.25])
    for command in COMMANDS:
        velocity = -k * state
        state = state + 0.1 * velocity
        match command:
            case ("reset", state):
                pass
            case _:
                pass
    return state, COMMANDS[3][1]
