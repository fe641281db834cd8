"""A loop that reports a running average in the same print that updates a counter
with an assignment expression; the total of `loss.item()` is read in that print."""

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return x * 0.5 + 1.0, jnp.mean(x)


def main():
    x = jnp.arange(4.0)
    total = 0.0
    n = 0
    for _ in range(6):
        x, loss = step(x)
        total += loss.item()
        print("average", round(total / (n := n + 1), 6))
    return total, n
