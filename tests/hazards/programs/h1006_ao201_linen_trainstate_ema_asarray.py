"""flax linen + a `TrainState` subclass with an `ema_params` field, started as
`jax.tree.map(lambda p: jnp.asarray(p, dtype=jnp.float32), params)` ("keep the EMA in
float32"). The parameters are float32 already, so every EMA leaf is the parameter array
itself. Trap for AO201: donating the state donates each of those buffers twice."""

from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class State(train_state.TrainState):
    ema_params: Any


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(4)(x)))


model = Net()


@jax.jit
def train_step(state, x, y):
    def loss(p):
        return jnp.mean((state.apply_fn(p, x) - y) ** 2)

    grads = jax.grad(loss)(state.params)
    state = state.apply_gradients(grads=grads)
    ema = jax.tree.map(lambda e, p: 0.9 * e + 0.1 * p, state.ema_params, state.params)
    return state.replace(ema_params=ema)


def main():
    x = jnp.linspace(-1.0, 1.0, 16).reshape(8, 2)
    y = jnp.cos(x[:, :1] + x[:, 1:])
    params = model.init(jax.random.PRNGKey(0), x)
    ema = jax.tree.map(lambda p: jnp.asarray(p, dtype=jnp.float32), params)
    state = State.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1), ema_params=ema)
    for _ in range(6):
        state = train_step(state, x, y)
    return state.params, state.ema_params
