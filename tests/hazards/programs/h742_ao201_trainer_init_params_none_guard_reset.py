"""Trainer that keeps its initial params in another attribute and starts from them
while no state exists (issue 26; the tutorials' `params=self.init_params if self.state
is None else self.state.params`). `reset()` drops the state and trains again, so the
second `init_optimizer` reads `self.init_params`, whose arrays the first state held:
donating `self.state` deleted them at the first step."""

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
        self.state = None

    def init_optimizer(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=None,
            params=self.init_params if self.state is None else self.state.params,
            tx=optax.sgd(lr),
        )

    def reset(self):
        self.state = None

    def fit(self, batches, lr):
        self.init_optimizer(lr)
        losses = []
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            losses.append(loss)
        return jnp.stack(losses)


def main():
    batches = [jnp.full((2, 4), 0.1 * (i + 1)) for i in range(6)]
    trainer = Trainer()
    first = trainer.fit(batches, 0.1)
    trainer.reset()
    second = trainer.fit(batches, 0.05)
    return {"first": first, "second": second}
