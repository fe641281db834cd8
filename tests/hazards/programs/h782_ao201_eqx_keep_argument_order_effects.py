"""A step whose arguments draw from one counter, a static scale before the kept batch.
Trap for AO201's keep-first form: moving the batch `data[next(counter)]` before the scale
`float(next(counter))` would change which value each draws; the order of evaluation must
stay."""

import itertools

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(w, scale, x):
    return w + scale * x


def main():
    data = jnp.arange(24.0).reshape(8, 3)
    counter = itertools.count()
    w = jnp.zeros(3)
    seen = []
    for _ in range(3):
        x = data[next(counter) % 8]
        w = step(w, float(next(counter)), data[next(counter) % 8])
        seen.append(x)
    return w, seen, next(counter)
