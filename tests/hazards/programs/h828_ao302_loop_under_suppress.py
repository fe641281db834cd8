"""An inner loop collecting each step's loss into a list that already holds the earlier
epochs', under `contextlib.suppress(FloatingPointError)`: the step raises in the
second epoch and the program goes on, reading the list. Trap for AO302's form that
adds the collected values after the loop: an exception leaving the loop would skip
that, and the list read after the `with` would miss the values of that epoch."""

import contextlib

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 1.5, jnp.sum(w)


def main():
    w = jnp.ones(3)
    losses = []
    for epoch in range(3):
        with contextlib.suppress(FloatingPointError):
            for i in range(4):
                w, loss = step(w)
                if epoch == 1 and i == 2:
                    raise FloatingPointError("diverged")
                losses.append(float(loss))
        print(epoch, len(losses))
    return w, losses
