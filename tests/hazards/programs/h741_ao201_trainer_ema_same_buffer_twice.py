"""Trainer whose state starts its moving average as the params themselves (issue 26,
trainer classes; the GAN tutorial's `params=params_gen, ema_params=params_gen`). The
field subclass's `create` holds one set of arrays as two fields, so donating
`self.state` donates each of them twice: XLA refuses the call (`Attempt to donate the
same buffer twice`)."""

from typing import Any

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class EmaState(train_state.TrainState):
    ema_params: Any = None


def loss_fn(params, batch):
    return jnp.mean((batch @ params["w"] - 1.0) ** 2)


@jax.jit
def train_step(state, batch):
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    ema = jax.tree.map(lambda e, p: 0.9 * e + 0.1 * p, state.ema_params, state.params)
    return state.apply_gradients(grads=grads, ema_params=ema), loss


class Trainer:
    def __init__(self):
        params = {"w": jnp.linspace(0.0, 1.0, 4)}
        self.state = EmaState.create(
            apply_fn=None, params=params, ema_params=params, tx=optax.sgd(0.1)
        )

    def fit(self, batches):
        losses = []
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            losses.append(loss)
        return jnp.stack(losses)


def main():
    trainer = Trainer()
    losses = trainer.fit([jnp.full((2, 4), 0.1 * (i + 1)) for i in range(6)])
    return {"losses": losses, "ema": trainer.state.ema_params["w"]}
