"""A flax `TrainState` trainer with the parameter-free `optax.contrib.dog` optimizer,
whose `init` stores the initial parameters themselves in its state. Trap for AO201:
`TrainState.create` then holds each parameter buffer twice (params and opt_state), and
donating `self.state` donates it twice."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(4)(x)))


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self, model, sample):
        params = model.init(jax.random.PRNGKey(0), sample)["params"]
        self.state = train_state.TrainState.create(
            apply_fn=model.apply, params=params, tx=optax.contrib.dog()
        )

    def fit(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss


def main():
    x = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    y = jnp.sum(x**2, axis=1, keepdims=True)
    trainer = Trainer(MLP(), x)
    loss = trainer.fit(x, y, 5)
    return loss, trainer.state.step
