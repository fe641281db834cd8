"""A call whose first argument runs a nested function that rebinds, through `nonlocal`,
the kept batch passed after it. Trap for AO201's keep-first form: reading `x` before
`bump()` runs would pass the old batch."""

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(scale, w, x):
    return w + scale * x


def main():
    x = jnp.ones(3)
    w = jnp.zeros(3)

    def bump():
        nonlocal x
        x = x + 1.0
        return 0.5

    for _ in range(3):
        w = step(bump(), w, x)
    return w, x
