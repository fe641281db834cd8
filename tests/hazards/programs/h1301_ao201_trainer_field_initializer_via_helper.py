"""AO201 trap (issue 26): a trainer's linen model hands a field to a module function,
which gives it to a layer as its initializer (`dense(x, self.kinit)`); the trainer is
built with an initializer returning a global array. `init` puts that very array in the
parameters, and the state built from them is donated at the first step: `TABLE` is
deleted, and `main` reads it after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

TABLE = jnp.full((4, 3), 0.5)


def dense(x, init):
    return nn.Dense(3, kernel_init=init)(x)


class Model(nn.Module):
    kinit: object

    @nn.compact
    def __call__(self, x):
        return dense(x, self.kinit).sum(axis=-1)


class Trainer:
    def __init__(self, exmp, **hparams):
        self.model = Model(**hparams)
        self.init_model(exmp)

    def init_model(self, exmp):
        self.init_params = self.model.init(jax.random.PRNGKey(0), exmp)
        self.state = None

    def create_functions(self):
        def train_step(state, batch):
            def loss_fn(p):
                return ((state.apply_fn(p, batch) - 1.0) ** 2).mean()

            loss, grads = jax.value_and_grad(loss_fn)(state.params)
            return state.apply_gradients(grads=grads), loss

        self.train_step = jax.jit(train_step)

    def init_optimizer(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply,
            params=self.init_params if self.state is None else self.state.params,
            tx=optax.sgd(lr),
        )

    def train_model(self, batches):
        self.create_functions()
        self.init_optimizer(0.05)
        losses = []
        for batch in batches:
            self.state, loss = self.train_step(self.state, batch)
            losses.append(loss)
        return losses


def main():
    batches = [jnp.arange(8.0).reshape(2, 4) / (i + 1) for i in range(4)]
    trainer = Trainer(batches[0], kinit=lambda key, shape, dtype=None: TABLE)
    losses = trainer.train_model(batches)
    return losses, trainer.state.params, TABLE.sum()
