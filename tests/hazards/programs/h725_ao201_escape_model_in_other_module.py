"""Module-level training that stores its model in another module's dict, which the
loader reads: the second batch is the first model's donated `"w"`. Trap for AO201's
escape reading (issue 26): a model stored where unseen code reads it has escaped."""

import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
hazlib_escape.CURRENT["params"] = params
for batch in hazlib_escape.Loader():
    params = step(params, batch)
RESULT = jnp.sum(params["w"])


def main():
    return RESULT
