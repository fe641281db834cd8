"""Trainer class that logs `self.state.params` every step to a logger object of the
file, which appends what it is given to its history. Trap for AO201: the logger holds
the very buffers of the state's parameters; donating `self.state` at the next step
deletes them, and the history is read when training ends."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class Logger:
    def __init__(self):
        self.history = []

    def log_params(self, params):
        self.history.append(params)


@jax.jit
def train_step(state, x):
    grads = jax.grad(lambda p: jnp.sum((x @ p["w"] - 1.0) ** 2))(state.params)
    return state.apply_gradients(grads=grads), jnp.sum(grads["w"])


class Trainer:
    def __init__(self, logger):
        self.logger = logger
        self.state = train_state.TrainState.create(
            apply_fn=None, params={"w": jnp.zeros((3, 1))}, tx=optax.sgd(0.05)
        )

    def train_model(self, xs):
        for x in xs:
            self.state, _ = train_step(self.state, x)
            self.logger.log_params(self.state.params)


def main():
    logger = Logger()
    Trainer(logger).train_model([jnp.ones((2, 3)) * (i + 1) for i in range(5)])
    return logger.history
