"""A named tuple of two arrays that the module registers as a pytree of its own, whose
flatten puts the second field, in a holder, into the aux data: a plain `jax.jit` probe
given one stores that field, the parameters' very buffer, in a module list. Trap for
AO201: a named tuple is aux-free only while nothing registers it (its class is passed to
`register_pytree_node` here), so `KEPT[0]` holds the buffer donating `params` to `step`
deletes, and it is read after every step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

KEPT = []


class Hold:
    def __init__(self, w):
        self.w = w


class Pair(NamedTuple):
    x: jax.Array
    w: jax.Array


jax.tree_util.register_pytree_node(
    Pair, lambda p: ((p.x,), Hold(p.w)), lambda hold, kids: Pair(kids[0], hold.w)
)


@jax.jit
def probe(pair):
    KEPT.append(pair.w)
    return pair.x * 2.0


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    params = jnp.arange(3.0)
    out = probe(Pair(jnp.ones(3), params))
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(KEPT[0].sum()))
    return params, out, seen
