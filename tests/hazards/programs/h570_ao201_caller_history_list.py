"""Caller's-array hazard (issue 26): the state handed to a training function is also
kept in a list.

`train_epoch(state, batches)` runs a jitted `train_step` that returns the new state, and
`main` rebinds `state = train_epoch(state, ...)` every epoch, so the old state looks dead
after each call. But `main` appended it to `history` first and reports the distance of
every kept state from the final one at the end. Donating `state` in `train_step` would
delete the arrays `history` still holds.
"""

import jax
import jax.numpy as jnp
import numpy as np

EPOCHS = 4
STEPS = 5


@jax.jit
def train_step(state, batch):
    x, y = batch
    grad = jax.grad(lambda w: jnp.mean((x @ w["kernel"] + w["bias"] - y) ** 2))(state)
    return jax.tree.map(lambda p, g: p - 0.1 * g, state, grad)


def train_epoch(state, batches):
    for batch in batches:
        state = train_step(state, batch)
    print("epoch bias", round(float(state["bias"][0]), 5))
    return state


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(64, 3)).astype(np.float32))
    y = x @ jnp.array([[1.0], [-2.0], [0.5]]) + 0.3
    batches = [(x[i::STEPS], y[i::STEPS]) for i in range(STEPS)]
    state = {"kernel": jnp.zeros((3, 1)), "bias": jnp.zeros((1,))}
    history = []
    for _ in range(EPOCHS):
        history.append(state)
        state = train_epoch(state, batches)
    moved = [float(jnp.sum((old["kernel"] - state["kernel"]) ** 2)) for old in history]
    print("moved", [round(m, 5) for m in moved])
    return state, moved
