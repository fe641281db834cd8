"""Polyak averaging: `init_state` starts the EMA copy of the weights from the same
array as the weights, so at the first step both fields of the state hold one buffer.
Trap for AO201: donating the state donates that buffer twice (XLA refuses)."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class TrainState(NamedTuple):
    params: jax.Array
    ema: jax.Array
    step: jax.Array


def init_state(params):
    return TrainState(params=params, ema=params, step=jnp.array(0))


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def train_step(state, x, y):
    g = jax.grad(loss)(state.params, x, y)
    params = state.params - 0.1 * g
    ema = 0.9 * state.ema + 0.1 * params
    return TrainState(params, ema, state.step + 1)


def main():
    rng = np.random.default_rng(10)
    x = jnp.asarray(rng.normal(size=(32, 3)), jnp.float32)
    y = x @ jnp.array([1.0, -1.0, 2.0])
    state = init_state(jnp.zeros(3))
    for _ in range(20):
        state = train_step(state, x, y)
    return state
