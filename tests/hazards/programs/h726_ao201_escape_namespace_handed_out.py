"""Module-level training whose loader is handed the module's own namespace
(`globals()`): each batch is the current `params["w"]`, read again after the step. Trap
for AO201's escape reading (issue 26): no statement hands the model out, but the
namespace lets unseen code read it at any time; donating `params` deletes the batch."""

import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
seen = []
for batch in hazlib_escape.Loader(globals()):
    params = step(params, batch)
    seen.append(float(jnp.sum(batch)))
RESULT = (jnp.sum(params["w"]), seen)


def main():
    return RESULT
