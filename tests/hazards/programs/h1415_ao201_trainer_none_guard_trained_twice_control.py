"""Control (issue 26, for h1410-h1414): the uvadlc trainer of h1422 trained twice: the
second `init_optimizer` runs after donating steps, but reads `self.init_params` and
`self.init_stats` only in `... if self.state is None else self.state...`, and
`self.state` is None only right after `init_model` stores new buffers in both
(`facts/none_guards.py`). AO201 donates `self.state` safely and the results stay the
same."""

from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class TrainState(train_state.TrainState):
    batch_stats: Any


class Model(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x, train=True):
        x = nn.Dense(self.width)(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        return nn.Dense(1)(nn.relu(x))


class Trainer:
    def __init__(self, exmp, **hparams):
        self.model = Model(**hparams)
        self.init_model(exmp)

    def init_model(self, exmp):
        variables = self.model.init(jax.random.PRNGKey(0), exmp)
        self.init_params, self.init_stats = variables["params"], variables["batch_stats"]
        self.state = None

    def create_functions(self):
        def train_step(state, batch):
            def loss_fn(p):
                variables = {"params": p, "batch_stats": state.batch_stats}
                out, updates = state.apply_fn(variables, batch, mutable=["batch_stats"])
                return ((out - 1.0) ** 2).mean(), updates

            (loss, updates), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
            state = state.apply_gradients(grads=grads, batch_stats=updates["batch_stats"])
            return state, loss

        self.train_step = jax.jit(train_step)

    def init_optimizer(self, lr):
        self.state = TrainState.create(
            apply_fn=self.model.apply,
            params=self.init_params if self.state is None else self.state.params,
            batch_stats=self.init_stats if self.state is None else self.state.batch_stats,
            tx=optax.adam(lr),
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
    trainer = Trainer(batches[0], width=8)
    first = trainer.train_model(batches)
    second = trainer.train_model(batches)
    return first, second, trainer.state.params, trainer.state.batch_stats
