"""Control (for h1648-h1650): a probe under plain `jax.jit` is given a tuple and a dict
of arrays and a number, and its results are kept in a module list read after training.
Every node of those pytrees is a tuple or a dict with string keys, which carries no
object of the caller into the body: the body sees tracers only, and donating `params` to
`step` keeps the results."""

import jax
import jax.numpy as jnp

KEPT = []


@jax.jit
def probe(pair, named, scale):
    return pair[0] * named["w"] * scale + pair[1]


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    params = jnp.arange(3.0)
    KEPT.append(probe((params, jnp.ones(3)), {"w": params}, 2.0))
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(KEPT[0].sum()))
    return params, seen
