"""AO201 trap (issue 26): a trainer keeps its first parameters in `self.init_params`,
which the state built from them shares, and reads them again after training (their
norm). Donating `self.state` at the first step deletes their buffers:
`first_norm` reads deleted arrays."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def patchify(x, patch):
    b, n = x.shape
    x = x.reshape(b, n // patch, patch)
    return x.reshape(b, -1)


class Model(nn.Module):
    width: int
    patch: int

    @nn.compact
    def __call__(self, x):
        x = patchify(x, self.patch)
        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))


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
            tx=optax.adam(lr),
        )

    def first_norm(self):
        return sum(jnp.abs(v).sum() for v in jax.tree.leaves(self.init_params))

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
    trainer = Trainer(batches[0], width=8, patch=2)
    losses = trainer.train_model(batches)
    return losses, trainer.first_norm()
