"""A loader generator that yields new batches (`data[idx]`, a gather), its loop target
named like the dataset it reads: `for data in batches(data, 4)`; after the loop the
program reports the last batch's mean. Trap for AO201's loop batch under
`eqx.filter_jit(donate="all")`: donating `data` deletes the last batch, read after the
loop."""

import equinox as eqx
import jax.numpy as jnp


def batches(data, size):
    for start in range(0, data.shape[0] - size + 1, size):
        yield data[jnp.arange(start, start + size)]


@eqx.filter_jit
def step(w, batch):
    pred = batch * w
    return w - 0.1 * jnp.mean(pred * batch, axis=0), pred


def main():
    data = jnp.linspace(0.0, 1.0, 48).reshape(16, 3)
    w = jnp.ones(3)
    for data in batches(data, 4):  # noqa: B020 (the trap)
        w, _ = step(w, data)
    return w, jnp.mean(data)
