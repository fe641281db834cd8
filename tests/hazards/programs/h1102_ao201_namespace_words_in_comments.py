"""Module-level training from a loader built before the model, as h727, in a file
whose comments (not this docstring: a string counts) name the builtins and the module table
that reach a module's namespace. Comments are read by no code: the module hands out no
namespace, so AO201 reads what unseen code made as of the call (issue 26) and may
donate `params`; the results must not change. Control for h1103."""

import hazlib_escape
import jax
import jax.numpy as jnp

# A script like this one never calls globals(), looks itself up in sys.modules or
# uses inspect: these words sit in comments only.
batches = [jnp.full(3, 0.25), jnp.full(3, 0.5), jnp.full(3, 1.0)]
loader = hazlib_escape.Loader(lambda: batches.pop())


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
for batch in loader:  # no globals() here either
    params = step(params, batch)
recorder = hazlib_escape.Recorder()
recorder.keep(params)
RESULT = (jnp.sum(params["w"]), recorder.total())


def main():
    return RESULT
