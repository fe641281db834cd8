"""A step that returns a kept argument as it is: the base vector, read by every step, is
also the step's second output. Trap for AO201's keep-first form: an output that may be
the kept argument's very buffer would replace a donated argument, so the next step would
donate (delete) the base; the form is not written for a step that returns what it keeps."""

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(w, base, scale):
    return w * scale + base, base


def main():
    base = jnp.array([1.0, 2.0, 3.0])
    w, prev = jnp.zeros(3), jnp.zeros(3)
    for _ in range(4):
        w, prev = step(w, base, 0.5)
    return w, prev, base.sum()
