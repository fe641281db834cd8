"""A flax trainer that keeps the initial params in `self.init_params` (for an L2-to-init
report) and builds `self.state = TrainState.create(params=self.init_params, ...)` from
them. Trap for AO201: the TrainState's params are the same buffers as
`self.init_params`; donating `self.state` deletes them, and the report reads them."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] - y) ** 2))(state.params)
    return state.apply_gradients(grads=grads)


class Trainer:
    def __init__(self):
        self.init_params = {"w": jnp.array([[0.5], [-0.5]])}
        self.state = train_state.TrainState.create(
            apply_fn=None, params=self.init_params, tx=optax.sgd(0.1)
        )

    def train(self, x, y, steps):
        for _ in range(steps):
            self.state = train_step(self.state, x, y)

    def drift(self):
        return jnp.sum((self.state.params["w"] - self.init_params["w"]) ** 2)


def main():
    trainer = Trainer()
    x = jnp.array([[1.0, 0.0], [1.0, 1.0]])
    y = jnp.array([[1.0], [2.0]])
    trainer.train(x, y, 4)
    return trainer.state.params, trainer.drift()
