"""As h910, without `jax.grad`: the loop's device statements call `shrink(w)` directly,
which reads the global `FACTOR`; `decay()`, called at the end of each iteration, rebinds
it with `global`. Trap for AO103: the compiled step keeps the first factor."""

import jax.numpy as jnp

FACTOR = 0.9


def shrink(w):
    return w * FACTOR


def decay():
    global FACTOR
    FACTOR = FACTOR - 0.2


def main():
    w = jnp.array([1.0, 2.0, 4.0])
    b = jnp.zeros(3)
    for _ in range(4):
        w = shrink(w)
        b = b + w
        decay()
    return w, b
