"""A trainer with Keras-style callbacks: an `EarlyStopping` callback object, built
outside the trainer and handed to it, keeps `self.best_state = trainer.state` when the
loss improves. Trap for AO201 on attribute targets: donating `self.state` in the next
step deletes the buffer the callback still holds, restored when training ends."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    grad = state - batch
    new = state - 0.3 * grad
    return new, jnp.mean((new - batch) ** 2)


class EarlyStopping:
    def __init__(self):
        self.best_loss = float("inf")
        self.best_state = None

    def on_step_end(self, trainer, loss):
        if loss < self.best_loss:
            self.best_loss = loss
            self.best_state = trainer.state


class Trainer:
    def __init__(self, callbacks):
        self.state = jnp.zeros(3)
        self.callbacks = callbacks

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            for cb in self.callbacks:
                cb.on_step_end(self, float(loss))


def main():
    stopper = EarlyStopping()
    trainer = Trainer([stopper])
    batches = [jnp.full(3, float(v)) for v in (1, 1, 1, 4, 6, 8, 9)]
    trainer.fit(batches)
    print("best loss", round(stopper.best_loss, 5))
    return stopper.best_state, trainer.state
