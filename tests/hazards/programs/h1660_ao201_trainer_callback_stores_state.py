"""Trainer that hands `self.model` and `self.state` to a callback of the file after every
epoch (the autoencoder tutorial's `log_generations`). The callback logs a number from the
model's output, and also keeps the first state it was given on itself, read after
training. Trap for AO201: donating `self.state` at the next step deletes the kept arrays."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


class Autoencoder(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(features=3)(nn.gelu(nn.Dense(features=self.width)(x)))


# MODEL


@jax.jit
def train_step(state, batch):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, batch) - batch) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class GenerateCallback:
    def __init__(self, images):
        self.images = images
        self.kept = []

    def log_generations(self, model, state, logger, epoch):
        reconst = model.apply({"params": state.params}, self.images)
        logger.append((epoch, float(np.stack([self.images, jax.device_get(reconst)]).sum())))
        if epoch == 0:
            self.kept = [state]


class Trainer:
    def __init__(self, images):
        self.model = Autoencoder(width=4)
        self.callback = GenerateCallback(images)
        self.logs = []
        params = self.model.init(jax.random.PRNGKey(0), images)["params"]
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.1)
        )

    def train_model(self, batches, epochs):
        for epoch in range(epochs):
            for batch in batches:
                self.state, _ = train_step(self.state, batch)
            self.callback.log_generations(self.model, self.state, logger=self.logs, epoch=epoch)


def main():
    images = jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
    trainer = Trainer(images)
    trainer.train_model([images, images * 0.5], 3)
    kept = [jnp.sum(jnp.asarray(v)) for v in jax.tree.leaves(trainer.callback.kept)]
    return trainer.logs, kept, jax.tree.map(jnp.sum, trainer.state.params)
