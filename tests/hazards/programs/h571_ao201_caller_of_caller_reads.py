"""Caller's-array hazard (issue 26): the caller's caller reads the state it passed.

`train_epoch(state, batches)` runs a jitted `train_step` on its parameter `state`. Its
only caller, `fit(state, batches)`, hands its own parameter on and returns the result:
`state` is dead in `fit` after the call. But `main` calls `fit(state, batches)` and then
evaluates the initial `state` as a baseline. A proof that looks only at the direct
callers of `train_epoch` would donate `state` and delete the arrays `main` still reads.
"""

import jax
import jax.numpy as jnp
import numpy as np

STEPS = 6


@jax.jit
def train_step(state, batch):
    x, y = batch
    grad = jax.grad(lambda w: jnp.mean((x @ w["kernel"] + w["bias"] - y) ** 2))(state)
    return jax.tree.map(lambda p, g: p - 0.05 * g, state, grad)


def train_epoch(state, batches):
    for batch in batches:
        state = train_step(state, batch)
    return state


def fit(state, batches):
    state = train_epoch(state, batches)
    return train_epoch(state, batches)


def loss(state, x, y):
    return float(jnp.mean((x @ state["kernel"] + state["bias"] - y) ** 2))


def main():
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.normal(size=(48, 2)).astype(np.float32))
    y = x @ jnp.array([[0.7], [-1.5]]) - 0.2
    batches = [(x[i::STEPS], y[i::STEPS]) for i in range(STEPS)]
    state = {"kernel": jnp.ones((2, 1)), "bias": jnp.zeros((1,))}
    trained = fit(state, batches)
    print("baseline", round(loss(state, x, y), 5), "trained", round(loss(trained, x, y), 5))
    return trained
