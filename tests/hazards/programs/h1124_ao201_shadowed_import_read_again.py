"""A notebook imports a module under the name it later rebinds to the state it trains,
and calls the function reading that name again after training: the function then returns
the live state's params. Trap for AO201 (a function that reads a global only while it
holds an import): `kept` holds the params the next donation deletes, read at the end."""

import hazlib_h1124_start as state
import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState


@jax.jit
def train_step(state, x):
    grads = jax.tree.map(lambda p: p * jnp.mean(x), state.params)
    return state.apply_gradients(grads=grads)


def current_params():
    return state.params


state = TrainState.create(apply_fn=None, params=current_params(), tx=optax.sgd(0.1))  # noqa: F811
for _ in range(3):
    state = train_step(state, jnp.ones(3))
kept = current_params()
for _ in range(2):
    state = train_step(state, jnp.ones(3))


def main():
    return jax.tree.map(jnp.sum, kept), jax.tree.map(jnp.sum, state.params)
