"""A helper packs parameters for a flat-vector optimiser and keeps a `shaped` entry
made by `flat.reshape(flat.shape)`, a no-op reshape that JAX answers with the same
array. Trap for AO201: one buffer fills two leaves of the donated state."""

import jax
import jax.numpy as jnp


def pack(key):
    flat = jax.random.uniform(key, (6,))
    return (flat, flat.reshape(flat.shape))


@jax.jit
def update(state, target):
    flat, shaped = state
    return (flat + 0.5 * (target - flat), shaped * 0.9 + 0.1 * target)


def main():
    state = pack(jax.random.PRNGKey(7))
    target = jnp.arange(6.0) / 6.0
    for _ in range(4):
        state = update(state, target)
    return state
