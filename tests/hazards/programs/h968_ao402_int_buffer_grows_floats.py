"""Event times collected by growing `times = jnp.zeros(0, dtype=jnp.int32)` with
`jnp.append(times, t * 0.5)`: the first append promotes the result to float32. Trap for
AO402: a preallocated int32 buffer would truncate the half-step times."""

import jax.numpy as jnp


def main():
    times = jnp.zeros(0, dtype=jnp.int32)
    x = jnp.array(0.3)
    for t in range(6):
        x = x * 1.7 % 1.0
        times = jnp.append(times, t * 0.5 + x)
    return times
