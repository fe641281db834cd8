"""Control for h256/h276: the accumulator starts as int8 and the pieces are strongly
typed (an int8 row, then float32 rows): joined once or step by step, promotion gives
the same array, so the list form is correct."""

import jax.numpy as jnp


def main():
    acc = jnp.zeros(0, dtype=jnp.int8)
    for t in range(5):
        if t < 2:
            piece = jnp.full(2, 3 * t, dtype=jnp.int8)
        else:
            piece = jnp.linspace(0.0, 1.0, 2, dtype=jnp.float32) * t
        acc = jnp.concatenate([acc, piece])
    return acc
