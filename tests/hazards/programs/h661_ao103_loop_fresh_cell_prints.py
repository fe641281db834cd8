"""An eager recurrent rollout whose cell is a small class of the file, built afresh and
called each step, `Cell(w)(h, xs[t])`; the cell's `__call__` logs each step with a
plain `print`. Trap for AO103: the body looks like device work in several statements,
but the print is in a method reached through a constructor's result; compiled (a step
or a whole-loop scan), it runs once at trace time instead of once per step."""

import jax.numpy as jnp


class Cell:
    def __init__(self, w):
        self.w = w

    def __call__(self, h, x):
        print("cell step")
        return jnp.tanh(h @ self.w + x)


def run(w, xs):
    h = jnp.zeros(2)
    for t in range(4):
        h = Cell(w)(h, xs[t])
        h = h / (1.0 + jnp.abs(h).sum())
    return h


def main():
    return run(jnp.eye(2) * 0.5, jnp.linspace(-1.0, 1.0, 8).reshape(4, 2))
