"""A step handed to a helper that calls it by position. Trap for AO201's keep-first form:
the helper's call `fn(state, batch)` is not a call of `step` the rewrite sees, so a
reordered signature would bind the state to the batch."""

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(state, batch):
    return state * 0.5 + batch


def run(fn, state, batch, n):
    for _ in range(n):
        state = fn(state, batch)
    return state


def main():
    batch = jnp.array([1.0, -1.0, 2.0])
    state = jnp.zeros(3)
    for _ in range(2):
        state = step(state, batch)
    return run(step, state, batch, 3), batch.sum()
