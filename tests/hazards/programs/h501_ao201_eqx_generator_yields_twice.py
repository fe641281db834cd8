"""Autoencoder batches whose input and target are one array: the generator yields
`(b, b)`. Trap for AO201: `eqx.filter_jit(donate="all")` donates one buffer twice,
which XLA refuses; the generator is not proven to yield new buffers, one per leaf."""

import equinox as eqx
import jax.numpy as jnp


def batches(data):
    for i in range(4):
        b = data[jnp.arange(2) + 2 * i]
        yield b, b


@eqx.filter_jit
def step(w, x, target):
    return w - 0.1 * jnp.mean((x * w - target) * x, axis=0)


def main():
    data = jnp.arange(24.0).reshape(8, 3) / 24.0
    w = jnp.zeros(3)
    for x, target in batches(data):
        w = step(w, x, target)
    return w
