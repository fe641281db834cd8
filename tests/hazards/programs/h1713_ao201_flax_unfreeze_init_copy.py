"""Linen: `init_params = flax.core.unfreeze(state.params)` taken as a copy before
training (a new dict of the same arrays); an L2-SP penalty reads it after.
"""

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x)[:, 0] - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=g), loss


def main():
    model = nn.Dense(1)
    x = jax.random.normal(jax.random.PRNGKey(0), (12, 4))
    y = x[:, 1] * 3.0
    params = model.init(jax.random.PRNGKey(1), x)["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.05))
    init_params = flax.core.unfreeze(state.params)
    for _ in range(5):
        state, loss = train_step(state, x, y)
    pairs = zip(jax.tree.leaves(state.params), jax.tree.leaves(init_params), strict=True)
    l2sp = sum(jnp.sum((a - b) ** 2) for a, b in pairs)
    return loss, l2sp
