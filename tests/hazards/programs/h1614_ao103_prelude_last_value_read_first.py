"""Trap for AO103's prelude: a step line reads `progress` before the body rebinds it (the
value of the iteration before). Computed by the loop before the step, `progress` would
reach `y` one iteration early."""

import jax.numpy as jnp


def run(x, n):
    progress = 0.5
    for epoch in range(n):
        y = jnp.sin(x) * progress
        progress = epoch / n
        x = jnp.tanh(y) + x * progress
        print(progress)
    return x, progress


def main():
    return run(jnp.ones(3), 6)
