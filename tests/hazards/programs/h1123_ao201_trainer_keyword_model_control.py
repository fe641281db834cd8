"""Control (for h1121, h1122): a trainer builds its linen model from keyword arguments
that only size its layers, initialises it in a method its constructor calls, splits its
key with `jax.random.split`, and code outside reads `trainer.model` after training:
`self.state` and `self.rng` donated safely, results unchanged."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    width: int
    rate: float

    @nn.compact
    def __call__(self, x, rng):
        h = nn.relu(nn.Dense(self.width)(x))
        h = nn.Dropout(self.rate, deterministic=False)(h, rng=rng)
        return nn.Dense(1)(h)


@jax.jit
def train_step(state, rng, x):
    rng, drop_rng = jax.random.split(rng)
    grads = jax.grad(lambda p: jnp.sum(state.apply_fn(p, x, drop_rng) ** 2))(state.params)
    return state.apply_gradients(grads=grads), rng


class Trainer:
    def __init__(self, **hparams):
        self.rng = jax.random.PRNGKey(0)
        self.model = MLP(**hparams)
        self.init_model()

    def init_model(self):
        self.rng, init_rng, drop_rng = jax.random.split(self.rng, 3)
        params = self.model.init(init_rng, jnp.ones((2, 3)), drop_rng)
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.05)
        )

    def fit(self, batches):
        for x in batches:
            self.state, self.rng = train_step(self.state, self.rng, x)


def main():
    trainer = Trainer(width=8, rate=0.25)
    trainer.fit([jnp.ones((2, 3)) * i for i in range(4)])
    out = trainer.model.apply(trainer.state.params, jnp.ones((2, 3)), jax.random.PRNGKey(5))
    return out, jax.tree.map(jnp.sum, trainer.state.params)
