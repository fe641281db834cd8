"""flax linen trainer returned by `fit`, which the program calls through a table of
runners: its callers are not in sight, and the one that runs copies the trainer.
Donating the state deletes the buffers `init_params` shares with the first state."""

import copy

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, batch):
    grads = jax.grad(lambda p: (state.apply_fn(p, batch) ** 2).sum())(state.params)
    return state.apply_gradients(grads=grads)


class Trainer:
    def __init__(self, exmp):
        self.model = nn.Dense(3)
        self.init_params = self.model.init(jax.random.PRNGKey(0), exmp)
        self.state = None

    def init_optimizer(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=self.init_params, tx=optax.sgd(lr)
        )

    def train_model(self, batches):
        self.init_optimizer(0.1)
        for batch in batches:
            self.state = train_step(self.state, batch)


def fit(batches):
    trainer = Trainer(jnp.ones((2, 4)))
    trainer.train_model(batches)
    return trainer, len(batches)


RUNNERS = {"fit": fit}


def main():
    batches = [jnp.full((2, 4), 0.1 * i) for i in range(1, 4)]
    trainer, steps = RUNNERS["fit"](batches)
    snapshot = copy.deepcopy(trainer)
    return snapshot.state.params, steps
