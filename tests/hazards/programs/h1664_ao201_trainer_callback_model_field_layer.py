"""Trainer whose model calls a layer handed to it as a field; that layer returns its own
kernel, which the model returns and the callback keeps. Trap for AO201: the field may be
a module returning its variables; donating `self.state` deletes the kept kernel."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


class Scale(nn.Module):
    @nn.compact
    def __call__(self, x):
        kernel = self.param("kernel", nn.initializers.ones, (3,))
        return x * kernel, kernel


class Autoencoder(nn.Module):
    width: int
    scale: nn.Module

    @nn.compact
    def __call__(self, x):
        out, kernel = self.scale(nn.Dense(features=3)(nn.gelu(nn.Dense(features=self.width)(x))))
        return out, kernel


# MODEL


@jax.jit
def train_step(state, batch):
    def loss_fn(params):
        return jnp.mean((state.apply_fn({"params": params}, batch)[0] - batch) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class GenerateCallback:
    def __init__(self, images):
        self.images = images
        self.kept = []

    def log_generations(self, model, state, logger, epoch):
        reconst = model.apply({"params": state.params}, self.images)
        logger.append((epoch, float(np.stack([self.images, jax.device_get(reconst[0])]).sum())))
        self.kept.append(model.apply({"params": state.params}, self.images)[1])


class Trainer:
    def __init__(self, images):
        self.model = Autoencoder(width=4, scale=Scale())
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
