"""A subclass of a trainer copies the whole trainer in its epoch hook (issue 26,
trainer classes). The base class never hands `self` on, but `Keeper.on_epoch_end`
appends `copy.copy(self)` to a module list: each copy shares the `.state` of its epoch,
read after training through `operator.attrgetter("state")` (no attribute named `state`
outside the classes). Donating `self.state` at the next step deletes what each copy
holds. Before subclasses were read as the class's own methods, this was given a safe
fix."""

import copy
import operator

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

HISTORY = []


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


class Keeper(Trainer):
    def on_epoch_end(self, epoch):
        HISTORY.append(copy.copy(self))


def main():
    trainer = Keeper()
    trainer.fit([jnp.full((2, 4), 0.1 * (i + 1)) for i in range(3)], 4)
    read = operator.attrgetter("state")
    return [read(k).params["w"] for k in HISTORY]
