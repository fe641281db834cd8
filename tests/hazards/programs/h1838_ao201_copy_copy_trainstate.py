"""flax linen: `initial = copy.copy(state)` keeps a shallow copy of the `TrainState`
(the same param arrays) to compare against after training; the jitted step replaces
`state`. Trap for AO201: donating `state` deletes the arrays `initial` holds."""

import copy

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState


class Tiny(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


@jax.jit
def train_step(state, x, y):
    grads = jax.grad(lambda p: jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2))(state.params)
    return state.apply_gradients(grads=grads)


def main():
    model = Tiny()
    x = jnp.array([[1.0, 2.0], [0.0, 1.0]])
    y = jnp.array([[1.0], [0.0]])
    params = model.init(jax.random.PRNGKey(0), x)["params"]
    state = TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
    initial = copy.copy(state)
    for _ in range(3):
        state = train_step(state, x, y)
    return jax.tree.map(lambda a, b: jnp.sum(a - b), state.params, initial.params)
