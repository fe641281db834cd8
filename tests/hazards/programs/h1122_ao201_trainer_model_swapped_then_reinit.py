"""Code outside a trainer swaps its model after training and initialises it again, then
trains on: the new model's `init` returns a global array. Trap for AO201 on `self.model`
read while the trainer is built: `init_model` also runs later, when `trainer.model` may
hold anything, so the state it stores may hold `PRETRAINED`, deleted by the next donation."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

PRETRAINED = jnp.linspace(0.0, 1.0, 3)


def pretrained(key, shape):
    return PRETRAINED


class Net(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.width)(x)


class Loaded(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x * self.param("w", pretrained, (3,))


@jax.jit
def train_step(state, x):
    grads = jax.grad(lambda p: jnp.sum(state.apply_fn(p, x) ** 2))(state.params)
    return state.apply_gradients(grads=grads)


class Trainer:
    def __init__(self, **hparams):
        self.model = Net(**hparams)
        self.init_model()

    def init_model(self):
        params = self.model.init(jax.random.PRNGKey(0), jnp.ones(3))
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.1)
        )

    def fit(self, batches):
        for x in batches:
            self.state = train_step(self.state, x)


def main():
    trainer = Trainer(width=3)
    trainer.fit([jnp.ones(3)] * 2)
    trainer.model = Loaded()
    trainer.init_model()
    trainer.fit([jnp.ones(3)] * 2)
    return jnp.sum(PRETRAINED), jax.tree.map(jnp.sum, trainer.state.params)
