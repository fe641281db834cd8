"""Control (for h1440-h1442): score_based_diffusion's loop, the target named like the
dataset its loader is given, `for step, data in zip(range(n), batches(data, 4))`, each
batch a new gather donated with the weights by `eqx.filter_jit(donate="all")`; nothing
reads a batch after its step, so the results are unchanged."""

import equinox as eqx
import jax.numpy as jnp


def batches(data, size):
    while True:
        for start in range(0, data.shape[0] - size + 1, size):
            yield data[jnp.arange(start, start + size)]


@eqx.filter_jit
def step(w, batch):
    pred = batch * w
    loss = jnp.mean(pred**2)
    return loss, w - 0.1 * jnp.mean(pred * batch, axis=0)


def main():
    data = jnp.linspace(0.0, 1.0, 48).reshape(16, 3)
    scale = jnp.std(data)
    data = data / scale
    w = jnp.ones(3)
    total = 0.0
    for _, data in zip(range(10), batches(data, 4), strict=False):  # noqa: B020
        value, w = step(w, data)
        total += value.item()
    return w, total, scale
