"""Module-level training whose loader is built with the model: each batch is read from
the dict it was given, so the second batch is the first model's donated `"w"`. Trap for
AO201's escape reading (issue 26): the loader reached the model before the batches were
made, so a batch may hold its buffers; donating `params` must stay unsafe."""

import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
loader = hazlib_escape.Loader(params)
for batch in loader:
    params = step(params, batch)
RESULT = jnp.sum(params["w"])


def main():
    return RESULT
