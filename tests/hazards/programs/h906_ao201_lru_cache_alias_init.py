"""Initial weights from a memoised factory, `make_init = functools.lru_cache()(_make)`:
a second call with the same size returns the cached array. Trap for AO201: the first
model's `params` is the cache's array; donating it deletes the cached value, which the
second run gets back from the cache."""

import functools

import jax
import jax.numpy as jnp


def _make(n):
    return jnp.linspace(0.0, 1.0, n)


make_init = functools.lru_cache(maxsize=None)(_make)


@jax.jit
def relax(params, target):
    return 0.5 * (params + target)


def run(target):
    params = make_init(4)
    for _ in range(3):
        params = relax(params, target)
    return params


def main():
    first = run(jnp.ones(4))
    second = run(jnp.zeros(4))
    return first, second
