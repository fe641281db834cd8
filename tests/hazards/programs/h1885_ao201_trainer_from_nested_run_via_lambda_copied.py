"""flax linen trainer built inside a nested `run` and returned through a lambda; the caller
takes a shallow `copy.copy` of the trained trainer, drops the copy's state and rebuilds it with
`init_optimizer`, which reads the shared `init_params`: the first state's donated buffers."""

import copy

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    hidden: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(self.hidden)(x)))


class TrainerModule:
    def __init__(self, exmp, lr=0.1, **model_hparams):
        self.model = MLP(**model_hparams)
        self.lr = lr
        self.init_model(exmp)
        self.create_functions()

    def init_model(self, exmp):
        self.init_params = self.model.init(jax.random.PRNGKey(0), exmp)["params"]
        self.state = None

    def create_functions(self):
        def train_step(state, batch):
            x, y = batch

            def loss_fn(p):
                return jnp.mean((state.apply_fn({"params": p}, x)[:, 0] - y) ** 2)

            loss, grads = jax.value_and_grad(loss_fn)(state.params)
            return state.apply_gradients(grads=grads), loss

        self.train_step = jax.jit(train_step)

    def init_optimizer(self):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply,
            params=self.init_params if self.state is None else self.state.params,
            tx=optax.sgd(self.lr),
        )

    def train_model(self, batches, num_epochs=3):
        self.init_optimizer()
        losses = []
        for _ in range(num_epochs):
            for batch in batches:
                self.state, loss = self.train_step(self.state, batch)
                losses.append(loss)
        return losses


def make_batches():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(6, 4)
    y = jnp.sin(x).sum(axis=1)
    return [(x[:3], y[:3]), (x[3:], y[3:])]


def experiment(hidden):
    batches = make_batches()

    def run():
        trainer = TrainerModule(batches[0][0], hidden=hidden)
        losses = trainer.train_model(batches)
        return trainer, losses

    return run()


launch = lambda hidden: experiment(hidden)  # noqa: E731


def main():
    trainer, losses = launch(8)
    fresh = copy.copy(trainer)
    fresh.state = None
    fresh.init_optimizer()
    return fresh.state.params, trainer.state.params, losses
