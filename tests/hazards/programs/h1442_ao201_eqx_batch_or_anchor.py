"""A loader generator that yields new batches (`data[idx]`, a gather); every third step
trains on a fixed anchor batch instead, bound to the loop's own target
(`data = anchor`). Trap for AO201's loop batch under `eqx.filter_jit(donate="all")`:
`data` is then not always the loader's new batch, and donating it deletes `anchor`,
which the next anchor step and the return read."""

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
    dataset = jnp.linspace(0.0, 1.0, 48).reshape(16, 3)
    anchor = jnp.full((4, 3), 0.5)
    w = jnp.ones(3)
    for i, data in enumerate(batches(dataset, 4)):
        if i % 3 == 2:
            data = anchor
        w, _ = step(w, data)
    return w, anchor
