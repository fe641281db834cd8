"""Module-level training whose loader is handed a closure over the model: each batch is
the current model's `"w"`, read again after the step. Trap for AO201's escape reading
(issue 26): a lambda reading `params` reached unseen code before the batches were made;
donating `params` deletes the batch."""

import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
loader = hazlib_escape.Loader(lambda: params["w"])
seen = []
for batch in loader:
    params = step(params, batch)
    seen.append(float(jnp.sum(batch)))
RESULT = (jnp.sum(params["w"]), seen)


def main():
    return RESULT
