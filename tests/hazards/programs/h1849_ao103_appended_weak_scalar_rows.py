"""plain jax: a jitted step that returns a weakly typed scalar (`jnp.sum(w) * 0 + 1.0`
is strong; `1.0 * n` with a Python int `n` is weak) appended to a list every iteration.
Trap for AO103 (whole loop): rows of a stacked scan output must keep each value's dtype
and weak type as the original's separate results."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, n):
    return w * 0.9, 1.0 * n


def main():
    w = jnp.ones(2)
    marks = []
    for _ in range(4):
        w, mark = step(w, 3)
        marks.append(mark)
    return w, marks
