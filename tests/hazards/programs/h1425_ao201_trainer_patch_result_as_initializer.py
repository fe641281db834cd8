"""AO201 trap (issue 26): a linen model reshapes the input of `__call__` with its field
`patch` (`x.reshape(2, -1, self.patch)`), and, while initialising, hands the result to
a `Dense` as its `kernel_init`. The example input is an object whose `reshape` returns
an initializer giving back the last array it was shaped with: the field `TABLE` itself.
`init`'s kernel is then `TABLE`'s buffer, which the state shares: donating `self.state`
deletes it, and `TABLE` is read after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

TABLE = jnp.arange(4.0).reshape(4, 1) / 4


class Example:
    """The example batch: its `reshape` hands back an initializer of its last argument."""

    def __init__(self, data):
        self.data = data

    def reshape(self, *shape):
        table = shape[-1]
        return lambda key, size, dtype=jnp.float32: table


class Model(nn.Module):
    patch: object

    @nn.compact
    def __call__(self, x):
        if self.is_initializing():
            init = x.reshape(2, -1, self.patch)
            return nn.Dense(1, kernel_init=init)(x.data)
        return nn.Dense(1)(x)


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
    batches = [jnp.arange(8.0).reshape(2, 4) / (i + 1) for i in range(3)]
    trainer = Trainer(Example(batches[0]), patch=TABLE)
    losses = trainer.train_model(batches)
    return losses, TABLE.sum()
