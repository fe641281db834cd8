"""Linen: a TrainState subclass with an `ema_params` field given `params` at creation
through a helper (`ema_params=start`, where `start` is the params dict).
"""

from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class EMAState(train_state.TrainState):
    ema_params: Any = None


def make_state(model, params):
    start = params
    return EMAState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1), ema_params=start)


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x)[:, 0] - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(state.params)
    state = state.apply_gradients(grads=g)
    ema = jax.tree.map(lambda e, p: 0.9 * e + 0.1 * p, state.ema_params, state.params)
    return state.replace(ema_params=ema), loss


def main():
    model = nn.Dense(1)
    x = jax.random.normal(jax.random.PRNGKey(0), (10, 3))
    y = x[:, 0]
    params = model.init(jax.random.PRNGKey(1), x)["params"]
    state = make_state(model, params)
    for _ in range(4):
        state, loss = train_step(state, x, y)
    return loss, state.ema_params
