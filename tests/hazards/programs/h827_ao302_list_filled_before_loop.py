"""A log list set empty, given a header entry, then filled with each step's loss as a
Python float. Trap for AO302's list form, which converts the whole list after the
loop: the list is not empty when the loop starts, so converting all of it would run
`float("epoch")` and raise; its values must be added after the header, in order."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w**2)


def main():
    w = jnp.arange(3.0)
    log = []
    log.append("epoch")
    for _ in range(4):
        w, loss = step(w)
        log.append(float(loss))
    return w, log
