"""A loader generator that yields new batches (`data[idx]`, a gather), its loop target
named like the dataset it reads: `for data in batches(data, 4)`. An outer epoch loop makes
the next epoch's loader from `data`, which by then is the last batch of the epoch before.
Trap for AO201's loop batch under `eqx.filter_jit(donate="all")`: donating `data` deletes
the last batch, and the second epoch's loader reads it (a deleted array)."""

import equinox as eqx
import jax.numpy as jnp


def batches(data, size):
    for start in range(0, data.shape[0] - size + 1, size):
        yield data[jnp.arange(start, start + size)]


@eqx.filter_jit
def step(w, batch):
    pred = batch * w
    loss = jnp.mean(pred**2)
    return w - 0.1 * jnp.mean(pred * batch, axis=0), loss, pred


def main():
    data = jnp.linspace(0.0, 1.0, 48).reshape(16, 3)
    w = jnp.ones(3)
    losses = []
    for _ in range(2):
        for data in batches(data, 4):  # noqa: B020 (the trap)
            w, loss, _ = step(w, data)
            losses.append(loss)
    return w, jnp.stack(losses)
