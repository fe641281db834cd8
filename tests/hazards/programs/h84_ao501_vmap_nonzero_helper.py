"""Sum of each signal's samples above a threshold, found with `jnp.nonzero`, stacked.
Trap for AO501: under `jax.vmap`, `jnp.nonzero` without `size=` has a data-dependent
shape (a concretization error); one example at a time it is concrete."""

import jax.numpy as jnp


def above(sig, level):
    return jnp.nonzero(sig > level)[0]


def loud_sum(sig):
    return jnp.sum(sig[above(sig, 0.2)])


def main():
    sigs = jnp.cos(jnp.arange(40.0).reshape(5, 8) * 0.9)
    return jnp.stack([loud_sum(s) for s in sigs])
