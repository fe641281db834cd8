"""A task trainer subclasses a base trainer and overrides its epoch hook (issue 26; the
transformer tutorial's `ReverseTrainer(TrainerModule)`). The base class reads
`self.state` only through its jitted step, but the subclass's hook keeps the state of
every epoch in a list: donating `self.state` at the next step deletes what it holds,
read after training."""

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


class Trainer:
    def __init__(self):
        self.state = train_state.TrainState.create(
            apply_fn=None, params={"w": jnp.linspace(0.0, 1.0, 4)}, tx=optax.sgd(0.1)
        )

    def on_epoch_end(self, epoch):
        pass

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for batch in batches:
                self.state, _ = train_step(self.state, batch)
            self.on_epoch_end(epoch)


class HistoryTrainer(Trainer):
    def __init__(self):
        super().__init__()
        self.history = []

    def on_epoch_end(self, epoch):
        self.history.append(self.state)


def main():
    trainer = HistoryTrainer()
    trainer.fit([jnp.full((2, 4), 0.1 * (i + 1)) for i in range(3)], 4)
    return [s.params["w"] for s in trainer.history]
