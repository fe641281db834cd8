"""Control (issue 26, for h1425): a trainer class in the uvadlc Vision Transformer
shape: the linen model hands its field `patch` to a module function that reshapes the
input of `__call__` with it (`x.reshape(b, n // patch, patch)`, the input of unknown
kind), and the patches reach only a set-up `Dense` (through a `Dropout`) and shapes; a
parameter made in `setup` is repeated by the batch size. `init` makes new buffers, and
`self.init_params` is read only before the first step: AO201 donates `self.state` and
`self.rng` safely and the results stay the same."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def img_to_patch(x, patch):
    b, n = x.shape
    x = x.reshape(b, n // patch, patch)
    x = x.transpose(0, 2, 1)
    return x.reshape(b, -1, *x.shape[2:])


class Model(nn.Module):
    width: int
    patch: int

    def setup(self):
        self.proj = nn.Dense(self.width)
        self.drop = nn.Dropout(0.1)
        self.token = self.param("token", nn.initializers.normal(1.0), (1, 1, self.width))
        self.head = nn.Dense(1)

    def __call__(self, x, train=True):
        x = img_to_patch(x, self.patch)
        b, t, _ = x.shape
        x = self.proj(self.drop(x, deterministic=not train))
        tok = self.token.repeat(b, axis=0)
        x = jnp.concatenate([tok, x], axis=1)[:, : t + 1]
        return self.head(x[:, 0])


class Trainer:
    def __init__(self, exmp, **hparams):
        self.rng = jax.random.PRNGKey(0)
        self.model = Model(**hparams)
        self.create_functions()
        self.init_model(exmp)

    def create_functions(self):
        def train_step(state, rng, batch):
            rng, drop_rng = jax.random.split(rng)

            def loss_fn(p):
                out = state.apply_fn({"params": p}, batch, rngs={"dropout": drop_rng})
                return ((out - 1.0) ** 2).mean()

            loss, grads = jax.value_and_grad(loss_fn)(state.params)
            return state.apply_gradients(grads=grads), rng, loss

        self.train_step = jax.jit(train_step)

    def init_model(self, exmp):
        self.rng, init_rng = jax.random.split(self.rng)
        self.init_params = self.model.init(init_rng, exmp, train=False)["params"]
        self.state = None

    def init_optimizer(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply,
            params=self.init_params if self.state is None else self.state.params,
            tx=optax.adam(lr),
        )

    def train_model(self, batches):
        self.init_optimizer(0.01)
        losses = []
        for batch in batches:
            self.state, self.rng, loss = self.train_step(self.state, self.rng, batch)
            losses.append(loss)
        return losses


def main():
    batches = [jnp.arange(16.0).reshape(2, 8) / (i + 1) for i in range(4)]
    trainer = Trainer(batches[0], width=8, patch=2)
    losses = trainer.train_model(batches)
    return losses, trainer.state.params
