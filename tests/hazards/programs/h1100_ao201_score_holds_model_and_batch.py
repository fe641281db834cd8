"""A dict model trained by a jitted step on a batch a loader of another module made
before the model existed; an `eqx.filter_jit` score of model and batch is printed every
step. AO201 reads the score as a value that may hold both (a framework jit's result),
but a third value holding both joins neither to the other: the model never reaches
code autoopt cannot see, so the batch, made by such code, holds none of its buffers.
Control for h1101 (issue 26): `params` is donated safely, results unchanged."""

import equinox as eqx
import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


@eqx.filter_jit
def score(params, batch):
    return jnp.sum(params["w"] * batch)


def main():
    batch = next(iter(hazlib_escape.Loader({"w": jnp.arange(3.0)})))
    params = {"w": jnp.ones(3)}
    for _ in range(3):
        total = score(params, batch)
        print(total)
        params = step(params, batch)
    return params, batch
