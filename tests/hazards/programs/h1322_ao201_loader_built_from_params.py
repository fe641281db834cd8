"""A loader built from the model's own weights (issue 26): the generator keeps
`params["w"]` and gathers a batch from it every step. Trap for AO201: the batches are
new buffers, but donating `params` deletes the array the generator reads next."""

import jax
import jax.numpy as jnp


def batches(arrays, size):
    for start in range(0, 8, size):
        index = jnp.arange(start, start + size)
        yield tuple(array[index] for array in arrays)


@jax.jit
def step(params, x):
    return {"w": params["w"] * 0.5 + x.sum()}


def main():
    params = {"w": jnp.arange(8.0)}
    losses = []
    for _, (x,) in zip(range(4), batches((params["w"],), 2), strict=False):
        params = step(params, x)
        losses.append(params["w"].sum())
    return params, losses
