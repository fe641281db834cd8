"""A jitted method with a static `self` is also called from another method of its class
(`self.update(...)` in `fit`), whose caller reads its own array after the call. Trap for
AO201: the module's direct calls replace their state, but `fit`'s first call would
donate the caller's `start`."""

import functools

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, rate):
        self.rate = rate

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, state, x):
        return state * self.rate + x

    def fit(self, state, xs):
        for x in xs:
            state = self.update(state, x)
        return state


trainer = Trainer(0.5)


def main():
    state = jnp.arange(3.0)
    for step in range(2):
        state = trainer.update(state, jnp.full((3,), float(step)))
    start = jnp.ones(3)
    fitted = trainer.fit(start, [jnp.zeros(3), jnp.ones(3)])
    return state, fitted, start
