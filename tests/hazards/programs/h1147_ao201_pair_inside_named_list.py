"""A training state `(pair, 1)` whose `pair = [w, w]` holds one array twice, through a
name. Trap for AO201: donating the state donates `w` twice (XLA refuses)."""

import jax
import jax.numpy as jnp


@jax.jit
def step(state):
    pair, n = state
    return [p * 0.5 + n for p in pair], n


def main():
    w = jnp.arange(3.0)
    pair = [w, w]
    state = (pair, 1)
    for _ in range(3):
        state = step(state)
    return state
