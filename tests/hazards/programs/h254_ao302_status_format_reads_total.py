# BROKEN by the default rewrite (AO302, safe fix applied: the sum form; AO201 also
# donates `w`, harmless).
# Fix: `TOTAL += float(loss)` becomes `TOTAL_parts.append(loss)` in the loop, and the
# parts are added to TOTAL after the loop.
# `print(f"{STATUS}")` runs `Status.__format__` during the loop (no call visible), which
# reads the global TOTAL: it is no longer updated while the loop runs.
# Outcome (stdout): 'total so far 5.00000', '... 6.25000', '... 6.56250', '... 6.64062'
# became 'total so far 0.00000' four times ("line 1: 'total so far 5.00000' became
# 'total so far 0.00000'"); the returned total is the same.
# Hazard class: host data read behind a deferral by code the loop runs implicitly
# (issue 27, class 3): `__format__` reading a global sum.
"""Running loss total kept in a module global and shown by a status object's
`__format__`; the loop adds `float(loss)` to the total and prints the status."""

import jax
import jax.numpy as jnp

TOTAL = 0.0


class Status:
    def __format__(self, spec):
        return f"total so far {TOTAL:.5f}"


STATUS = Status()


@jax.jit
def step(w):
    return 0.5 * w, jnp.sum(w**2)


def main():
    global TOTAL
    TOTAL = 0.0
    w = jnp.array([1.0, 2.0])
    for _ in range(4):
        w, loss = step(w)
        TOTAL += float(loss)
        print(f"{STATUS}")
    return w, TOTAL
