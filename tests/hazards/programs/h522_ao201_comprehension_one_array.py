"""A list comprehension whose every element is the same array: `[w for _ in heads]`
holds one buffer in each leaf. Trap for AO201's distinct-leaves premise: each element is
not a new array, so donating the list donates `w` several times."""

import jax
import jax.numpy as jnp


@jax.jit
def step(heads):
    return [h + 0.1 * i for i, h in enumerate(heads)]


def main():
    w = jnp.ones(3)
    heads = [w for _ in jnp.arange(3)]
    for i in range(4):
        heads = step(heads)
        print(i, float(heads[0][0]))
    return heads
