"""Trap for AO103's prelude: `progress` comes within 2e-5 of one, and the step divides by
`1.0 - progress`. Traced, `progress` is a float32 whose rounding the difference turns
into a 0.1% error; the loop must compute `1.0 - progress` in float64, as eagerly, and
pass the step its value (its one rounding, as eagerly)."""

import jax.numpy as jnp


def run(x, n):
    for epoch in range(n):
        progress = (epoch + 99_997) / 100_000
        y = jnp.ones(3) / (1.0 - progress)
        x = x + y * 1e-5
        print(progress)
    return x


def main():
    return run(jnp.zeros(3), 3)
