"""Module-level training whose loader is handed the module's namespace, found through
the builtin named by a string (`getattr(builtins, "globals")()`): each batch is the
current `params["w"]`, read again after the step. Trap for AO201 (issue 26): a word in
a string still counts (only comments are left out); donating `params` deletes the
batch."""

import builtins

import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
seen = []
for batch in hazlib_escape.Loader(getattr(builtins, "globals")()):  # noqa: B009
    params = step(params, batch)
    seen.append(float(jnp.sum(batch)))
RESULT = (jnp.sum(params["w"]), seen)


def main():
    return RESULT
