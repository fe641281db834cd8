"""flax.training TrainState: the state is created from `params` and the script
reports at the end how far the trained parameters moved from `params`, which the
state was built from (the same arrays)."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


def apply_fn(params, x):
    return jnp.tanh(x @ params["w"]) @ params["v"]


def loss_fn(params, x, y):
    return jnp.mean((apply_fn(params, x) - y) ** 2)


@jax.jit
def train_step(state, x, y):
    grads = jax.grad(loss_fn)(state.params, x, y)
    return state.apply_gradients(grads=grads)


def main():
    rng = np.random.default_rng(206)
    x = jnp.asarray(rng.normal(size=(32, 3)), jnp.float32)
    y = jnp.sin(x[:, :1])
    params = {
        "w": jnp.asarray(rng.normal(size=(3, 8)) * 0.5, jnp.float32),
        "v": jnp.asarray(rng.normal(size=(8, 1)) * 0.5, jnp.float32),
    }
    state = train_state.TrainState.create(apply_fn=apply_fn, params=params, tx=optax.sgd(0.1))
    for _ in range(15):
        state = train_step(state, x, y)
    moved = jax.tree.map(lambda a, b: jnp.abs(a - b).max(), state.params, params)
    return moved, loss_fn(state.params, x, y)
