"""A helper `wrap(x)` returns `(x, 1)`, given a list that holds one array twice. Trap for
AO201: the state it returns holds that array in two leaves; donating it donates it
twice."""

import jax
import jax.numpy as jnp


def wrap(x):
    return (x, 1)


@jax.jit
def step(state):
    pair, n = state
    return [p + n for p in pair], n


def main():
    w = jnp.ones(3)
    pair = [w, w]
    state = wrap(pair)
    for _ in range(3):
        state = step(state)
    return state
