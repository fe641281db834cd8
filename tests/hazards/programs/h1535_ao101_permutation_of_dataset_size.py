"""Per-epoch shuffling: a helper draws `jax.random.permutation(key, n)` for the dataset size `n`."""

import jax
import jax.numpy as jnp


def shuffled_order(key, n):
    return jax.random.permutation(key, n)


def main():
    xs = jnp.arange(10.0)
    key = jax.random.PRNGKey(0)
    firsts = []
    for epoch in range(3):  # noqa: B007
        key, sub = jax.random.split(key)
        order = shuffled_order(sub, xs.shape[0])
        firsts.append(xs[order][:3])
    return jnp.stack(firsts)
