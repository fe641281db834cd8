"""A trainer whose `params` attribute is managed by a data descriptor, `Recorded`, that
appends every value assigned to a per-instance history (a reusable "tracked attribute"
helper). The loop is the ordinary `self.params = sgd(self.params, x, y)`. Trap for
AO201: the descriptor's `__set__` keeps each value the next step would donate."""

import jax
import jax.numpy as jnp


class Recorded:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, objtype=None):
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        obj.__dict__.setdefault("trace", []).append(value)
        setattr(obj, self.name, value)


@jax.jit
def sgd(params, x, y):
    return params - 0.2 * jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)


class Trainer:
    params = Recorded()

    def __init__(self):
        self.params = jnp.zeros(2)

    def fit(self, data):
        for x, y in data:
            self.params = sgd(self.params, x, y)


def main():
    xs = jnp.linspace(-1.0, 1.0, 24).reshape(4, 3, 2)
    trainer = Trainer()
    trainer.fit([(x, x @ jnp.array([1.0, 2.0])) for x in xs])
    return trainer.trace
