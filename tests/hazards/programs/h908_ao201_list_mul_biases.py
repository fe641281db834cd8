"""Biases of a stack of layers made as `[jnp.zeros(width)] * depth`, the usual one-liner:
a list holding one array `depth` times. Trap for AO201: donating the params donates that
buffer three times in one call."""

import jax
import jax.numpy as jnp


def init(depth, width):
    ws = [jnp.eye(width) * (1.0 - 0.2 * i) for i in range(depth)]
    bs = [jnp.zeros(width)] * depth
    return ws, bs


@jax.jit
def step(ws, bs, x):
    def loss(ws, bs):
        h = x
        for w, b in zip(ws, bs, strict=True):
            h = jnp.tanh(h @ w + b)
        return jnp.sum((h - 0.5) ** 2)

    gw, gb = jax.grad(loss, argnums=(0, 1))(ws, bs)
    ws = [w - 0.1 * g for w, g in zip(ws, gw, strict=True)]
    bs = [b - 0.1 * g for b, g in zip(bs, gb, strict=True)]
    return ws, bs


def main():
    ws, bs = init(3, 2)
    x = jnp.array([1.0, -1.0])
    for _ in range(3):
        ws, bs = step(ws, bs, x)
    return ws, bs
