"""A step `update(w, batch)` that differentiates `functools.partial(weighted_loss,
batch=batch)`; `weighted_loss` reads the module-level class weights `CLASS_WEIGHTS`,
rebound by `reweight()` after each epoch (re-balancing). Trap for AO101: jitting
`update` keeps the first weights, read through the partial handed to `jax.grad`."""

import functools

import jax
import jax.numpy as jnp

CLASS_WEIGHTS = jnp.array([1.0, 1.0])


def weighted_loss(w, batch):
    x, y = batch
    errors = (x @ w - y) ** 2
    return jnp.sum(CLASS_WEIGHTS * errors)


def update(w, batch):
    return w - 0.05 * jax.grad(functools.partial(weighted_loss, batch=batch))(w)


def reweight(epoch):
    global CLASS_WEIGHTS
    CLASS_WEIGHTS = jnp.array([1.0, 1.0 + epoch])


def main():
    batch = (jnp.array([[1.0, 0.0], [0.0, 1.0]]), jnp.array([1.0, -1.0]))
    w = jnp.zeros(2)
    for epoch in range(3):
        for _ in range(2):
            w = update(w, batch)
        reweight(epoch + 1)
    return w
