"""A list filled in place with one array twice: its two leaves are one buffer. Trap for
AO201's distinct-leaves premise: donating `params` asks XLA to donate that buffer twice,
which it refuses."""

import jax
import jax.numpy as jnp


@jax.jit
def step(params):
    return [p * 0.5 + 1.0 for p in params]


def main():
    shared = jnp.linspace(0.0, 1.0, 4)
    params = []
    for _ in range(2):
        params.append(shared)
    for _ in range(3):
        params = step(params)
    return params
