"""A jitted method with a static `self` (`functools.partial(jax.jit, static_argnums=0)`)
replaces its state argument every step; the first state comes from a plain method of the
same instance that returns the instance's own attribute. Trap for AO201: the first call
would donate `trainer.start`, read again after the loop."""

import functools

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, width):
        self.width = width
        self.start = jnp.linspace(0.0, 1.0, width)

    def initial_state(self):
        return self.start

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, state, x):
        return state * 0.9 + x / self.width


trainer = Trainer(4)


def main():
    state = trainer.initial_state()
    for step in range(3):
        state = trainer.update(state, jnp.full((4,), float(step)))
    return state, trainer.start
