"""Module-level training from a loader built before the model, whose final model is
handed to a recorder only after the loop. AO201 may donate `params` (issue 26: nothing
that may share the model's buffers reached unseen code before a call, and what the
recorder keeps is never donated); the results must not change."""

import hazlib_escape
import jax
import jax.numpy as jnp

batches = [jnp.full(3, 0.25), jnp.full(3, 0.5), jnp.full(3, 1.0)]
loader = hazlib_escape.Loader(lambda: batches.pop())


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
for batch in loader:
    params = step(params, batch)
recorder = hazlib_escape.Recorder()
recorder.keep(params)
RESULT = (jnp.sum(params["w"]), recorder.total())


def main():
    return RESULT
