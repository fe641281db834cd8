"""Module-level training whose dataset holds the model's own `"w"`: the loader yields it
every time, so the second batch is the donated first model. Trap for AO201's escape
reading (issue 26): a container holding a leaf of the model reached the loader."""

import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
dataset = [params["w"]]
for batch in hazlib_escape.Loader(dataset):
    params = step(params, batch)
RESULT = jnp.sum(params["w"])


def main():
    return RESULT
