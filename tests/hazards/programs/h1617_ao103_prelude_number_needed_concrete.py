"""Trap for AO103's prelude: the step gives `progress * 4.0 + 1.0` to `jnp.arange`, which
needs it concrete. Traced, the step fails to compile; static, it would compile again
every iteration: no fix."""

import jax.numpy as jnp


def run(x, n):
    for epoch in range(n):
        progress = epoch / n
        pad = jnp.arange(progress * 4.0 + 1.0)
        x = jnp.tanh(x) + jnp.sum(pad)
        print(progress)
    return x


def main():
    return run(jnp.ones(3), 4)
