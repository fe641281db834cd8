"""An in-memory checkpoint manager written as module functions: `save(store, step,
state)` keeps `store[step] = state`, and the best checkpoint is restored at the end.
Trap for AO201: the step's `state` is rebound by its output, but the dict the helper
filled still holds the buffers a donated call would delete."""

import jax
import jax.numpy as jnp


def save(store, step, state):
    store[step] = state


def restore(store, step):
    return store[step]


@jax.jit
def update(state, x):
    params, momentum = state["params"], state["momentum"]
    grad = 2.0 * (params - x)
    momentum = 0.5 * momentum + grad
    return {"params": params - 0.1 * momentum, "momentum": momentum}


def main():
    state = {"params": jnp.array([3.0, -2.0]), "momentum": jnp.zeros(2)}
    store = {}
    losses = {}
    for step in range(12):
        state = update(state, jnp.array([1.0, 1.0]) * (step % 5))
        if step % 4 == 0:
            save(store, step, state)
            losses[step] = float(jnp.sum(state["params"] ** 2))
    best = min(losses, key=losses.get)
    print("best step", best)
    return restore(store, best), state
