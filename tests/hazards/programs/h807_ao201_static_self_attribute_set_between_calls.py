"""A jitted method with a static `self` whose instance gets an attribute set to the
caller's array between calls (`trainer.anchor = state`). Trap for AO201: the instance
holds the donated state; jit reads a static `self`'s attributes as constants, and the
program reads `trainer.anchor` after the loop."""

import functools

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, rate):
        self.rate = rate

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, state, x):
        return state * self.rate + x


trainer = Trainer(0.5)


def main():
    state = jnp.arange(3.0)
    trainer.anchor = state
    for step in range(3):
        state = trainer.update(state, jnp.full((3,), float(step)))
    return state, trainer.anchor
