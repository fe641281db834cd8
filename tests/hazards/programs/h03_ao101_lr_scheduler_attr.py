"""Momentum SGD whose update reads `schedule.lr`, an attribute of a scheduler object
that the loop advances every step. Trap for AO101: jit freezes the attribute."""

import jax
import jax.numpy as jnp


class CosineSchedule:
    def __init__(self, base, total):
        self.base = base
        self.total = total
        self.t = 0
        self.lr = base

    def advance(self):
        self.t += 1
        self.lr = 0.5 * self.base * (1.0 + float(jnp.cos(jnp.pi * self.t / self.total)))


schedule = CosineSchedule(0.1, 15)


def momentum_update(params, velocity, grads):
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, velocity, grads)
    params = jax.tree.map(lambda p, v: p - schedule.lr * v, params, velocity)
    return params, velocity


def loss(params):
    return jnp.sum((params["a"] - 3.0) ** 2) + jnp.sum((params["b"] + 1.0) ** 2)


def main():
    params = {"a": jnp.zeros(2), "b": jnp.zeros(3)}
    velocity = jax.tree.map(jnp.zeros_like, params)
    for _ in range(15):
        grads = jax.grad(loss)(params)
        params, velocity = momentum_update(params, velocity, grads)
        schedule.advance()
    return params, loss(params)
