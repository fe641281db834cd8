"""A trainer that hands `self.state` to its callbacks after every step, `cb(step,
self.state)`; an EMA callback keeps `state.params` itself the first time (as its
initial average) and averages later ones into it. Trap for AO201: the callback keeps a
reference to a state that the next step would donate."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class EMACallback:
    def __init__(self, decay):
        self.decay = decay
        self.ema = None

    def __call__(self, step, state):
        if self.ema is None:
            self.ema = state.params
        else:
            self.ema = jax.tree.map(
                lambda e, p: self.decay * e + (1 - self.decay) * p, self.ema, state.params
            )


@jax.jit
def train_step(state, x, y):
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((x @ p["w"] - y) ** 2))(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self, callbacks):
        self.state = train_state.TrainState.create(
            apply_fn=None, params={"w": jnp.array([0.1, 0.2])}, tx=optax.sgd(0.1)
        )
        self.callbacks = callbacks

    def fit(self, x, y, steps):
        for i in range(steps):
            self.state, loss = train_step(self.state, x, y)
            for cb in self.callbacks:
                cb(i, self.state)
        return loss


def main():
    ema = EMACallback(0.5)
    trainer = Trainer([ema])
    loss = trainer.fit(jnp.array([[1.0, 2.0], [2.0, 0.0]]), jnp.array([1.0, 1.0]), 5)
    return loss, ema.ema["w"]
