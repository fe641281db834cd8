"""`train(state)` replaces its parameter with a jitted step's output; its one caller
passes `params = (w, w)`, one array twice. Trap for AO201: the first call donates `w`
twice."""

import jax
import jax.numpy as jnp


@jax.jit
def step(state):
    a, b = state
    return a * 2.0, b + 1.0


def train(state):
    for _ in range(3):
        state = step(state)
    return state


def main():
    w = jnp.array([1.0, 2.0])
    params = (w, w)
    return train(params)
