"""Control (issue 26): a trainer's linen model has a method only users call after
training (`sample` jits a lambda, which the audit of initializers refuses where `init`
may run it); `init` runs `__call__` alone. Its parameters are new buffers: AO201
donates `self.state` safely and the results stay the same."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class Model(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))

    def sample(self, x):
        return jax.jit(lambda v: jnp.tanh(v))(x)


class Trainer:
    def __init__(self, exmp, **hparams):
        self.seed = 0
        self.exmp = exmp
        self.model = Model(**hparams)
        self.init_model()

    def init_model(self):
        init_rng = jax.random.PRNGKey(self.seed)
        params = self.model.init(init_rng, self.exmp)
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.adam(0.05)
        )

    def create_functions(self):
        def train_step(state, batch):
            def loss_fn(p):
                return ((state.apply_fn(p, batch) - 1.0) ** 2).mean()

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
    return (
        losses,
        trainer.state.params,
        trainer.model.apply(trainer.state.params, batches[0], method=Model.sample),
    )
