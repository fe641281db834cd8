"""The step reads the learning rate from an object whose `__getattr__` looks it up in a
dict that the loop decays.
"""

import jax
import jax.numpy as jnp


class Hyper:
    def __init__(self, **kw):
        self.__dict__["_v"] = dict(kw)

    def __getattr__(self, name):
        return self.__dict__["_v"][name]


HP = Hyper(lr=0.5)


def sgd(w, g):
    return w - HP.lr * g


def main():
    w = jnp.array([1.0, -2.0])
    for _ in range(5):
        g = jax.grad(lambda w: jnp.sum(w**2))(w)
        w = sgd(w, g)
        HP._v["lr"] = HP._v["lr"] * 0.5
    return w
