"""Features computed per window of a signal split with `jnp.split(signal, 4)` (a list
of arrays), then stacked. Trap for AO501: the examples come from a list, not one
array; `jax.vmap(features)(jnp.split(...))` would map over each window's rows instead."""

import jax.numpy as jnp


def features(window):
    return jnp.stack([window.mean(), window.std(), window.max() - window.min()])


def main():
    signal = jnp.sin(jnp.linspace(0.0, 6.0, 16)) + jnp.linspace(0.0, 1.0, 16)
    feats = []
    for window in jnp.split(signal, 4):
        feats.append(features(window))
    return jnp.stack(feats)
