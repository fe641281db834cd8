"""A hand-written SGD update `apply_sgd(params, grads)` that runs
`jax.tree.map(scaled_step, params, grads)`; the module function `scaled_step` reads the
global `LR`, which the training loop decays with `set_lr(...)` each epoch. Trap for
AO101: jitting `apply_sgd` bakes in the first `LR`, read only inside the function handed
to `jax.tree.map`."""

import jax
import jax.numpy as jnp

LR = 0.2


def scaled_step(p, g):
    return p - LR * g


def apply_sgd(params, grads):
    return jax.tree.map(scaled_step, params, grads)


def set_lr(value):
    global LR
    LR = value


def main():
    params = {"w": jnp.array([1.0, -1.0]), "b": jnp.array(0.5)}
    for epoch in range(4):
        for _ in range(2):
            grads = jax.tree.map(lambda p: 2.0 * p, params)
            params = apply_sgd(params, grads)
        set_lr(0.2 / (epoch + 2))
    return params
