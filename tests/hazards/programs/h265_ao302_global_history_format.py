# BROKEN by the default rewrite (AO302, safe fix applied: the list form).
# Fix: `HISTORY.append(float(loss))` becomes `HISTORY.append(loss)`, and
# `HISTORY = [float(value) for value in jax.device_get(HISTORY)]` after the loop.
# The module-level `REPORT` object's `__format__` reads the global HISTORY while the
# loop runs: `print(f"progress: {REPORT}")` formats it with no call visible in the loop.
# During the loop the list now holds device arrays, so the printed list changes.
# Outcome (stdout): 'progress: 4 steps, recent [1.2287999391555786, 0.7864319086074829]'
# became 'progress: 4 steps, recent [Array(1.2287999, dtype=float32), Array(0.7864319,
# dtype=float32)]' (3 lines, all differ). Values returned are the same.
# Hazard class: host data read behind a deferral, by a callback (`__format__` of an
# object in an f-string) reading a global list (issue 27, class 3; order/content of
# host effects, class 6).
"""Training script with a module-level progress reporter whose `__format__` reads the
global HISTORY list; the loop appends `float(loss)` to a fresh HISTORY and prints the
reporter in an f-string every 4 steps (no call is visible in the loop)."""

import jax
import jax.numpy as jnp

HISTORY = []


class Reporter:
    def __format__(self, spec):
        if not HISTORY:
            return "no steps"
        return f"{len(HISTORY)} steps, recent {HISTORY[-2:]}"


REPORT = Reporter()


@jax.jit
def step(w):
    return w - 0.2 * (w - 1.0), jnp.sum((w - 1.0) ** 2)


def main():
    global HISTORY
    HISTORY = []
    w = jnp.zeros(3)
    for t in range(12):
        w, loss = step(w)
        HISTORY.append(float(loss))
        if t % 4 == 3:
            print(f"progress: {REPORT}")
    return w, HISTORY
