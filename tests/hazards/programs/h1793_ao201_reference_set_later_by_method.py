"""plain jax: a `Tracker` whose `start(params)` method, called after a warmup step,
keeps the params as the reference for a drift metric. Trap for AO201: donating `params`
at the later steps deletes the reference the tracker holds."""

import jax
import jax.numpy as jnp


class Tracker:
    def __init__(self):
        self.ref = None

    def start(self, params):
        self.ref = params

    def drift(self, params):
        return jnp.sum((params - self.ref) ** 2)


@jax.jit
def step(params, x):
    return params - 0.1 * (params - x)


def main():
    tracker = Tracker()
    params = jnp.zeros(3)
    x = jnp.array([1.0, 2.0, 3.0])
    for i in range(5):
        params = step(params, x)
        if i == 1:
            tracker.start(params)
    return tracker.drift(params)
