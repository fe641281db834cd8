"""Multiscale sum: level `k` is weighted by `1.0 / (1 << k)`, exact for a Python int
`k` up to 40 levels. Traced as int32, `1 << k` is 0 from level 32 on."""

import jax.numpy as jnp


def main():
    x = jnp.linspace(0.0, 1.0, 8)
    acc = jnp.zeros(8)
    for level in range(40):
        weight = 1.0 / (1 << level)
        acc = acc + weight * jnp.sin(x * (level + 1))
        x = x * 0.99 + 0.01
    return acc, x
