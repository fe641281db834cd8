"""A `@dataclasses.dataclass` trainer that a script clones with `dataclasses.replace`
to run a second schedule from the same starting point: `fast = dataclasses.replace(
base, lr=0.5)`. Both instances share the `params` array. Trap for AO201: training
`base` with `self.params = step(self.params, ...)` donating deletes the array `fast`
starts from."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.jit
def step(params, lr, x, y):
    g = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    return params - lr * g


@dataclasses.dataclass
class Run:
    params: jax.Array
    lr: float

    def train(self, x, y, n):
        for _ in range(n):
            self.params = step(self.params, self.lr, x, y)
        return self.params


def main():
    x = jnp.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    y = jnp.array([1.0, -2.0, 0.0])
    base = Run(jnp.array([0.5, 0.5]), 0.1)
    fast = dataclasses.replace(base, lr=0.3)
    a = base.train(x, y, 6)
    b = fast.train(x, y, 6)
    return a, b
