"""Trap for AO103's prelude: `progress = epoch / m` follows `m = m + 2`, a step line that
rebinds `m`. Computed by the loop before the step, `progress` would read the `m` of the
iteration before."""

import jax.numpy as jnp


def run(x, n):
    m = 4
    for epoch in range(n):
        x = jnp.sin(x) * 0.5
        m = m + 2
        progress = epoch / m
        x = x * progress + 1.0
        print(progress)
    return x, m


def main():
    return run(jnp.ones(3), 5)
