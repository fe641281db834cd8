"""Linen TrainState, DQN style: the target network is "copied" with
`jax.lax.stop_gradient(state.params)` before training (eagerly that is the same arrays).
"""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class QNet(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.tanh(nn.Dense(8)(x))
        return nn.Dense(2)(x)


@jax.jit
def train_step(state, target_params, x, r):
    def loss_fn(p):
        q = state.apply_fn({"params": p}, x)
        q_t = state.apply_fn({"params": target_params}, x)
        return jnp.mean((q - (r[:, None] + 0.9 * q_t)) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def main():
    model = QNet()
    x = jax.random.normal(jax.random.PRNGKey(0), (16, 3))
    r = jnp.sin(x[:, 0])
    params = model.init(jax.random.PRNGKey(1), x)["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(1e-2))
    target_params = jax.lax.stop_gradient(state.params)
    for _ in range(5):
        state, loss = train_step(state, target_params, x, r)
    drift = jax.tree.map(lambda a, b: jnp.abs(a - b).sum(), state.params, target_params)
    return loss, drift
