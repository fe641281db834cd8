"""Mean of the positive samples of each signal, stacked. Trap for AO501: under
`jax.vmap`, the helper's boolean mask `sig[sig > 0]` has a data-dependent shape
(NonConcreteBooleanIndexError); one example at a time it is concrete."""

import jax.numpy as jnp


def positives(sig):
    keep = sig > 0
    return sig[keep]


def pos_mean(sig):
    return jnp.mean(positives(sig))


def main():
    sigs = jnp.sin(jnp.arange(48.0).reshape(6, 8) * 0.7)
    return jnp.stack([pos_mean(s) for s in sigs])
