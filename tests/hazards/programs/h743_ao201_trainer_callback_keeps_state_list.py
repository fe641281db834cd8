"""Trainer that hands `self.state` to a callback of the same file after every epoch
(issue 26; the autoencoder tutorial's `self.generate_callback.log_generations(self.model,
self.state, ...)`). This callback keeps each state it is given in a list, so donating
`self.state` at the next step deletes the arrays the list holds, read after training."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def loss_fn(params, batch):
    return jnp.mean((batch @ params["w"] - 1.0) ** 2)


@jax.jit
def train_step(state, batch):
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    return state.apply_gradients(grads=grads), loss


class SnapshotCallback:
    def __init__(self):
        self.snapshots = []

    def log_generations(self, state, epoch):
        if epoch % 2 == 0:
            self.snapshots.append(state)


class Trainer:
    def __init__(self):
        self.callback = SnapshotCallback()
        self.state = train_state.TrainState.create(
            apply_fn=None, params={"w": jnp.linspace(0.0, 1.0, 4)}, tx=optax.sgd(0.1)
        )

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for batch in batches:
                self.state, _ = train_step(self.state, batch)
            self.callback.log_generations(self.state, epoch)

    def snapshots(self):
        return self.callback.snapshots


def main():
    trainer = Trainer()
    trainer.fit([jnp.full((2, 4), 0.1 * (i + 1)) for i in range(3)], 5)
    return jnp.stack([jnp.sum(s.params["w"]) for s in trainer.snapshots()])
