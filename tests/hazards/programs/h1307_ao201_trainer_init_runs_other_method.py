"""AO201 trap (issue 26): a trainer initialises its linen model with another method
(`init(..., method=Model.tied)`), whose layer's initializer returns the global `TABLE`:
the parameters hold `TABLE` itself. Donating `self.state` at the first step deletes
it, and `main` reads it after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

TABLE = jnp.full((4, 1), 0.5)


class Model(nn.Module):
    width: int

    def setup(self):
        self.hidden = nn.Dense(self.width)
        self.out = nn.Dense(1)

    def __call__(self, x):
        return self.out(nn.relu(self.hidden(x)))

    @nn.compact
    def tied(self, x):
        return nn.Dense(1, kernel_init=lambda *_: TABLE)(x)


class Trainer:
    def __init__(self, exmp, **hparams):
        self.seed = 0
        self.exmp = exmp
        self.model = Model(**hparams)
        self.init_model()

    def init_model(self):
        init_rng = jax.random.PRNGKey(self.seed)
        params = self.model.init(init_rng, self.exmp, method=Model.tied)
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.adam(0.05)
        )

    def create_functions(self):
        def train_step(state, batch):
            def loss_fn(p):
                return ((self.model.apply(p, batch, method=Model.tied) - 1.0) ** 2).mean()

            loss, grads = jax.value_and_grad(loss_fn)(state.params)
            return state.apply_gradients(grads=grads), loss

        self.train_step = jax.jit(train_step)

    def train_model(self, batches):
        self.create_functions()
        losses = []
        for batch in batches:
            self.state, loss = self.train_step(self.state, batch)
            losses.append(loss)
        return losses


def main():
    batches = [jnp.arange(8.0).reshape(2, 4) / (i + 1) for i in range(4)]
    trainer = Trainer(batches[0], width=8)
    losses = trainer.train_model(batches)
    return losses, trainer.state.params, TABLE.sum()
