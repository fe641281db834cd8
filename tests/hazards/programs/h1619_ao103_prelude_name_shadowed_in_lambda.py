"""Trap for AO103's prelude: a lambda of the step names its parameter `progress`, like the
number the loop computes before the step. `progress * 0.5` there is the lambda's own
arithmetic on each leaf: computed by the loop instead, every leaf would become one
number."""

import jax
import jax.numpy as jnp


def run(params, n):
    total = jnp.zeros(())
    for epoch in range(n):
        progress = epoch / n
        params = jax.tree.map(lambda progress: progress * 0.5, params)
        total = total + jnp.sum(params["a"]) * progress
        print(progress)
    return params, total


def main():
    return run({"a": jnp.ones(3), "b": jnp.arange(2.0)}, 4)
