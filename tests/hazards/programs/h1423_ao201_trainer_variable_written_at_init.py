"""AO201 trap (issue 26): a linen model makes a variable with `jnp.zeros`, then, while
initialising, writes the input itself into it (`seen.value = x`): `init`'s variables
hold the caller's example batch, and the state built from them shares its buffer.
Donating `self.state` deletes it, and the steps pass the same batch again (`Attempt to
use a buffer that was previously donated`)."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        seen = self.variable("cache", "seen", jnp.zeros, x.shape)
        if self.is_initializing():
            seen.value = x
        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x))) + seen.value.sum()


@jax.jit
def train_step(state, batch):
    grads = jax.grad(lambda p: state.apply_fn(p, batch).sum())(state.params)
    return state.apply_gradients(grads=grads), batch.sum()


class Trainer:
    def __init__(self, exmp, **hparams):
        self.model = MLP(**hparams)
        self.init_model(exmp)

    def init_model(self, exmp):
        params = self.model.init(jax.random.PRNGKey(0), exmp)
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.1)
        )

    def train_model(self, batches):
        losses = []
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            losses.append(loss)
        return losses


def main():
    exmp = jnp.ones((2, 3))
    trainer = Trainer(exmp, width=8)
    losses = trainer.train_model([exmp, exmp])
    return losses, exmp.sum()
