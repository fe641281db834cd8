"""A smoothing window object whose `__iter__` walks the last entries of the global
`LOSSES` list: the loop calls `max(WINDOW)`, which runs `__iter__` with no call of it
in sight, so the list must hold Python floats while the loop runs."""

import jax
import jax.numpy as jnp

LOSSES = []


class Window:
    def __iter__(self):
        return iter(LOSSES[-3:] or [0.0])


WINDOW = Window()


@jax.jit
def update(w):
    return w * 0.9 + 0.05, jnp.sum(w**2)


def main():
    global LOSSES
    w = jnp.arange(4.0)
    LOSSES = []
    peaks = []
    for _ in range(8):
        w, loss = update(w)
        LOSSES.append(float(loss))
        peaks.append(type(max(WINDOW)).__name__)
    return w, LOSSES, peaks
