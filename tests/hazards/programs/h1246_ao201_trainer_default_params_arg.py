"""A trainer whose `__init__` takes `params=DEFAULT_PARAMS`, a module global, and puts
it in the state as is; two trainers are built one after the other. Trap for AO201:
donating the first trainer's state deletes `DEFAULT_PARAMS`, which the second trainer
starts from."""

import jax
import jax.numpy as jnp

DEFAULT_PARAMS = {"w": jnp.array([0.5, -0.5]), "b": jnp.array(0.0)}


@jax.jit
def train_step(params, x, y):
    def loss_fn(p):
        return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)

    grads = jax.grad(loss_fn)(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


class Trainer:
    def __init__(self, params=DEFAULT_PARAMS):
        self.params = params

    def fit(self, x, y, steps):
        for _ in range(steps):
            self.params = train_step(self.params, x, y)
        return self.params["w"]


def main():
    x = jnp.array([[1.0, 2.0], [2.0, 1.0]])
    a = Trainer().fit(x, jnp.array([1.0, 0.0]), 3)
    b = Trainer().fit(x, jnp.array([0.0, 1.0]), 3)
    return a, b
