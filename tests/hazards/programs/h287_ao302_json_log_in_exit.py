# BROKEN by the default rewrite (AO302, safe fix applied: the list form; AO201 also
# donates `w`, harmless).
# Fix: `LOG.append(float(loss))` becomes `LOG.append(loss)`, and
# `LOG = [float(value) for value in jax.device_get(LOG)]` after the loop.
# Every step runs in `with TIMER:`; `StepTimer.__exit__` (code the `with` statement runs
# during the loop, no call visible) serialises `LOG[-2:]` with `json.dumps`, which
# cannot take JAX arrays.
# Outcome: original prints 4 JSON lines ('{"step": 1, "recent": [5.0]}', ...) and returns
# (w, [5.0, 1.25, 0.3125, 0.078125]); default rewrite crashes: "TypeError: Object of
# type ArrayImpl is not JSON serializable".
# Hazard class: host code reading the list whose syncs were deferred (issue 27,
# class 3): a context manager's `__exit__` reading a global list.
"""Every step runs inside a module-level timer context manager whose `__exit__`
writes a JSON log line with the last two entries of the global loss log; the loop
appends `float(loss)` to that log."""

import json

import jax
import jax.numpy as jnp

LOG = []


class StepTimer:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        print(json.dumps({"step": len(LOG), "recent": LOG[-2:]}))
        return False


TIMER = StepTimer()


@jax.jit
def step(w):
    return 0.5 * w, jnp.sum(w**2)


def main():
    global LOG
    LOG = []
    w = jnp.array([1.0, 2.0])
    for _ in range(4):
        with TIMER:
            w, loss = step(w)
            LOG.append(float(loss))
    return w, LOG
