"""As h1100, but each step hands a view of the model, made by a decorated function
(code autoopt cannot see: it returns the model's very `"w"`), to a recorder of another
module, which sums what it kept after the loop. Trap for AO201 (issue 26): the recorder
holds the model's buffers; donating `params` deletes them before the sum."""

import functools

import hazlib_escape
import jax
import jax.numpy as jnp


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)

    return wrapper


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


@traced
def view_of(params):
    return {"w": params["w"]}


def main():
    batch = next(iter(hazlib_escape.Loader({"w": jnp.arange(3.0)})))
    params = {"w": jnp.ones(3)}
    recorder = hazlib_escape.Recorder()
    for _ in range(3):
        recorder.keep(view_of(params))
        params = step(params, batch)
    return params, recorder.total()
