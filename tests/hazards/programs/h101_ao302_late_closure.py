"""Training with an early-warning check that inspects the loss history every step: a
nested `check()`, defined before `losses = []`, reads `losses[-1]` by late binding.
Trap for AO302: kept on the device, the history would hold device arrays while the loop
runs, and `check` would see them instead of Python floats."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    loss = jnp.sum(w**2)
    return w * 0.8, loss


def main():
    w = jnp.array([1.0, 0.5])
    flags = []

    def check():
        last = losses[-1]
        flags.append(isinstance(last, float) and last < 0.5)

    losses = []
    for _ in range(10):
        w, loss = step(w)
        losses.append(float(loss))
        check()
    return losses, flags
