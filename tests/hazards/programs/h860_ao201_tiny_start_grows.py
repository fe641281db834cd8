"""A step whose first input is one 0-d array but whose output is a vector: the state is
only tiny at the first call. Trap for AO201's tiny-donation check: the donation must stay
(every later call donates the vector), and the rewrite must keep the result."""

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return x * 0.5 + jnp.arange(4.0)


def main():
    x = jnp.array(1.0)
    for _ in range(3):
        x = step(x)
    return x
