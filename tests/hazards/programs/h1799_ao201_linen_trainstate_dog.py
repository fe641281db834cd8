"""flax linen: a `TrainState.create(apply_fn, params, tx=optax.contrib.dog(...))`,
whose `opt_state` holds the very parameter arrays of `state.params`; the jitted step
replaces the state. Trap for AO201: donating `state` donates the same buffer twice (as
a parameter and as the optimizer's copy) at the first step."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(4)(x))
        return nn.Dense(1)(x)


@jax.jit
def train_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def main():
    model = MLP()
    x = jnp.linspace(-1.0, 1.0, 6).reshape(3, 2)
    y = jnp.array([[0.0], [1.0], [0.5]])
    params = model.init(jax.random.PRNGKey(0), x)["params"]
    state = train_state.TrainState.create(
        apply_fn=model.apply, params=params, tx=optax.contrib.dog(1.0)
    )
    for _ in range(3):
        state, loss = train_step(state, x, y)
    return loss
