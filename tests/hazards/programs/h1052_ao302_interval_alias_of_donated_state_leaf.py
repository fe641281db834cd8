"""Interval logging of a running mean: each step's loss is read as `cur = state.loss`
and collected with `float(cur)`; every fourth step prints the mean of the last four.
The step reads the previous `state.loss` (a loss-adaptive rate) and the loop times each
step. Trap for AO302 (interval form) together with AO201: the pending device value
`cur` is a leaf of `state`, which the next step donates before the print converts it."""

import time
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    w: jax.Array
    loss: jax.Array


@jax.jit
def train_step(state, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(state.w)
    lr = 0.1 / (1.0 + 0.1 * state.loss)
    return State(state.w - lr * g, loss)


def main():
    x = jnp.array([[1.0, 2.0], [2.0, -1.0], [0.5, 0.5]])
    y = jnp.array([1.0, 0.0, 2.0])
    state = State(jnp.zeros(2), jnp.array(0.0))
    losses = []
    seconds = 0.0
    for i in range(12):
        started = time.perf_counter()
        state = train_step(state, x, y)
        cur = state.loss
        losses.append(float(cur))
        seconds += time.perf_counter() - started
        if i % 4 == 3:
            print(f"step {i}: {sum(losses[-4:]) / 4:.5f}")
    return state.w, losses
