"""The starting weights are published for a report through `globals()["INITIAL"] =
params`. Trap for AO201: the module global holds the params' buffer; donating `params`
to the training step deletes it, and `report()` reads `INITIAL` after training."""

import jax
import jax.numpy as jnp

INITIAL = None


@jax.jit
def step(params, x):
    return params - 0.25 * (params - x)


def report(final):
    return jnp.linalg.norm(final - INITIAL)


def main():
    params = jnp.array([1.0, 2.0, 3.0])
    globals()["INITIAL"] = params
    for k in range(4):
        params = step(params, jnp.full(3, float(k)))
    return params, report(params)
