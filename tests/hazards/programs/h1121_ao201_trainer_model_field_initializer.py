"""A trainer builds its linen model from keyword arguments, one of which is the function
that makes a parameter: `self.param("w", self.make, (3,))` with `make` returning a global
array. Trap for AO201 on a trainer's `self.model` (fields that cannot become variables):
the state's params hold `PRETRAINED`, which donating `self.state` deletes."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

PRETRAINED = jnp.linspace(0.0, 1.0, 3)


def pretrained(key, shape):
    return PRETRAINED


class Net(nn.Module):
    make: object

    @nn.compact
    def __call__(self, x):
        return x * self.param("w", self.make, (3,))


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
    trainer = Trainer(make=pretrained)
    trainer.fit([jnp.ones(3)] * 3)
    return jnp.sum(PRETRAINED), jax.tree.map(jnp.sum, trainer.state.params)
