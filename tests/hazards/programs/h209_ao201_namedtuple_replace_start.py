"""Simulation state as a NamedTuple; the starting state for the report is taken
with `state._replace(t=0.0)`, a new tuple that shares the position array."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Sim(NamedTuple):
    pos: jax.Array
    t: float


@jax.jit
def advance(pos, dt):
    return pos + dt * jnp.cos(pos)


def main():
    state = Sim(pos=jnp.linspace(0.0, 1.0, 5), t=0.5)
    start = state._replace(t=0.0)
    pos = state.pos
    for _ in range(30):
        pos = advance(pos, 0.05)
    return start.pos, pos
