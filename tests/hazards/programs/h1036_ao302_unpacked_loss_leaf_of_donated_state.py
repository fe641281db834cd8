"""A trainer state NamedTuple `(w, loss)`: the step adapts its rate from the previous
loss, so it reads `state.loss`. The loop times each step and unpacks the state,
`w, loss = state`, collecting `float(loss)`. Trap for AO302 together with AO201: the
collected `loss` is a leaf of `state`; kept on the device until after the loop, it is
deleted when the next step donates `state`."""

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
    for i in range(12):  # noqa: B007
        started = time.perf_counter()
        state = train_step(state, x, y)
        w, loss = state  # noqa: RUF059
        losses.append(float(loss))
        seconds += time.perf_counter() - started
    return state.w, losses
