"""Eager diffusion loop of device statements; a probe class defined in the function
records the starting field in its class body (`class Probe: start = u`), read after.
"""

import jax.numpy as jnp


def main():
    u = jnp.sin(jnp.linspace(0.0, 3.0, 8))

    class Probe:
        start = u
        label = "initial field"

    for _ in range(5):
        lap = jnp.roll(u, 1) - 2.0 * u + jnp.roll(u, -1)
        u = u + 0.2 * lap
    return u, jnp.abs(u - Probe.start).sum()
