"""A step called with its batch spread from a tuple (`step(w, *batch)`). Trap for AO201's
keep-first form: `*batch` binds by position, so the kept arguments cannot be moved first
at that call; a reordered signature would bind the batch's first array to the weights."""

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(w, xs, ys):
    return w + xs.sum(0) - ys.sum(0)


def main():
    batch = (jnp.ones((2, 3)), jnp.full((2, 3), 0.25))
    w = jnp.zeros(3)
    for _ in range(3):
        w = step(w, batch[0], batch[1])
    w = step(w, *batch)
    return w, batch[0].sum()
