"""Control (for h1124): the notebook's shape, `signature` imported from the standard
library's introspection module too: `create_train_state` runs once, before the name of
the module it reads is rebound to the state: `state` donated safely, results unchanged."""

from inspect import signature

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

print(len(signature(jnp.zeros).parameters) > 0)


@jax.jit
def train_step(state, x):
    grads = jax.tree.map(lambda p: p * jnp.mean(x), state.params)
    return state.apply_gradients(grads=grads)


def train_epoch(state, xs):
    for x in xs:
        state = train_step(state, x)
    return state


def create_train_state(params):
    return train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))


train_state = create_train_state({"w": jnp.linspace(0.0, 1.0, 3)})  # noqa: F811
for _ in range(2):
    train_state = train_epoch(train_state, [jnp.ones(3)] * 3)
totals = jax.tree.map(jnp.sum, train_state.params)


def main():
    return totals
