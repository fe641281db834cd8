"""A Python int count of positive entries, added to with `jnp.sum` each sweep."""

import jax
import jax.numpy as jnp


def main():
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (10,))
    positives = 0
    for sweep in range(5):  # noqa: B007
        x = jnp.tanh(x * 1.5 - 0.2)
        positives = positives + jnp.sum(x > 0)
    return x, positives
