"""AO201 trap (issue 26): a trainer builds its model from a class it is given
(`self.model = model_class(**hparams)`, the uvadlc shape), here a plain class, no linen
module, whose `init` returns a global array as a parameter. The state built from it
holds that array: donating `self.state` at the first step deletes `TABLE`, which
`main` reads after training."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

TABLE = jnp.full((4,), 0.5)


class Linear:
    def __init__(self, scale):
        self.scale = scale

    def init(self, key, x):
        return {"w": TABLE}

    def apply(self, params, x):
        return x @ params["w"] * self.scale


class Trainer:
    def __init__(self, model_class, exmp, **hparams):
        self.model = model_class(**hparams)
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
    trainer = Trainer(Linear, batches[0], scale=2.0)
    losses = trainer.train_model(batches)
    return losses, trainer.state.params, TABLE.sum()
