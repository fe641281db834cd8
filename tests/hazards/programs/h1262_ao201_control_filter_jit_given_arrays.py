"""Control (for h1260): the probe is given arrays only, `probe(params, x)`, and keeps
what it computes on a module list. Trap for AO201: none; the body sees tracers of
`params`, the list holds new buffers only, and donating `params` to `step` keeps the
results."""

import equinox as eqx
import jax
import jax.numpy as jnp

SEEN = []


@eqx.filter_jit
def probe(params, x):
    return jnp.sum(params * x)


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    params = jnp.arange(3.0)
    x = jnp.ones(3)
    for _ in range(3):
        SEEN.append(probe(params, x))
        params = step(params, x)
    return params, [float(s) for s in SEEN]
