# BROKEN by the default rewrite (AO302, safe fix applied: the list form; AO201 also
# donates `w`, harmless here).
# Fix: `HISTORY.append(float(loss))` becomes `HISTORY.append(loss)`, and
# `HISTORY = [float(value) for value in jax.device_get(HISTORY)]` after the loop.
# The jitted `step` calls `jax.debug.callback(report, loss)`; `report` (host code that
# runs during the loop, on every call of `step`) reads the global HISTORY with
# `statistics.mean`, which cannot take JAX arrays.
# Outcome: original returns (w, [8.0, 4.5, ...]) and prints 5 lines; default rewrite
# crashes: "jax.errors.JaxRuntimeError: INTERNAL: CpuCallback error calling callback ...
# TypeError: can't convert type 'ArrayImpl' to numerator/denominator".
# Hazard class: a callback reading the list whose syncs were deferred (issue 27,
# class 3), through `jax.debug.callback` in an already jitted function.
"""The jitted step reports through `jax.debug.callback`; the host callback prints the
mean of the global loss history with `statistics.mean`, while the loop appends
`float(loss)` to that history."""

import statistics

import jax
import jax.numpy as jnp

HISTORY = []


def report(step_loss):
    if HISTORY:
        print("step", len(HISTORY), "mean so far", round(statistics.mean(HISTORY), 6))


@jax.jit
def step(w):
    loss = jnp.sum((w - 2.0) ** 2)
    jax.debug.callback(report, loss)
    return w - 0.25 * (w - 2.0), loss


def main():
    global HISTORY
    HISTORY = []
    w = jnp.zeros(2)
    for _ in range(6):
        w, loss = step(w)
        jax.effects_barrier()
        HISTORY.append(float(loss))
    return w, HISTORY
