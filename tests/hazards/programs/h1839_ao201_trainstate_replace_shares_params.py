"""flax linen: `reference = state.replace(step=0)` builds a new `TrainState` that shares
every array but the step with `state`; the jitted step replaces `state`, and the
reference state is evaluated after training. Trap for AO201: donating `state` deletes
the params the reference holds."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.relu(nn.Dense(3)(x)))


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def main():
    net = Net()
    x = jnp.linspace(0.0, 1.0, 6).reshape(3, 2)
    y = jnp.ones((3, 2))
    state = train_state.TrainState.create(
        apply_fn=net.apply, params=net.init(jax.random.PRNGKey(2), x)["params"], tx=optax.sgd(0.2)
    )
    reference = state.replace(step=0)
    for _ in range(3):
        state, loss = train_step(state, x, y)
    return loss, jnp.sum(reference.apply_fn({"params": reference.params}, x))
