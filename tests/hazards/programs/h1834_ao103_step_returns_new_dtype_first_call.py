"""plain jax: the carry starts as an int array (`counts = jnp.zeros(3, jnp.int32)`) and
the jitted step returns floats (`counts * 0.5 + x`); the loop runs 4 steps. Trap for
AO103 (whole loop): the carry's dtype changes after the first step, so a scan with the
initial carry's type would fail or truncate; only the loop of steps keeps the result."""

import jax
import jax.numpy as jnp


@jax.jit
def step(counts, x):
    return counts * 0.5 + x


def main():
    counts = jnp.zeros(3, jnp.int32)
    x = jnp.array([1.0, 2.0, 3.0])
    for _ in range(4):
        counts = step(counts, x)
    return counts
