"""Fill with a while loop that breaks when the index reaches a value-dependent bound."""

import jax.numpy as jnp


def fill_until(n, limit):
    out = jnp.full((n,), -1.0)
    i = 0
    total = 0.0
    while i < n:
        out = out.at[i].set(total)
        total += i * 0.5
        if total > limit:
            break
        i += 1
    return out, i


def main():
    return fill_until(10, 4.0)
