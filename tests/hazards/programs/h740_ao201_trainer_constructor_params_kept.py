"""Trainer whose first state is built by `TrainState(...)` from another attribute
(issue 26, trainer classes). `self.init_params` is handed to the constructor, which
holds those very arrays as `params`; `init_optimizer` re-creates the state from
`self.state.params`, still the same arrays. Donating `self.state` at the first step
deletes what `self.init_params` holds, and `initial_loss()` reads it after training."""

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
        self.init_params = {"w": jnp.linspace(0.0, 1.0, 4)}
        self.state = train_state.TrainState(
            step=0, apply_fn=None, params=self.init_params, tx=None, opt_state=None
        )

    def init_optimizer(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=None, params=self.state.params, tx=optax.sgd(lr)
        )

    def fit(self, batches):
        self.init_optimizer(0.1)
        losses = []
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            losses.append(loss)
        return jnp.stack(losses)

    def initial_loss(self, batch):
        return loss_fn(self.init_params, batch)


def main():
    batches = [jnp.full((2, 4), 0.1 * (i + 1)) for i in range(6)]
    trainer = Trainer()
    losses = trainer.fit(batches)
    return {"losses": losses, "initial": trainer.initial_loss(batches[0])}
