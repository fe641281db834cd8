"""Fine-tuning with an L2-SP penalty towards the pretrained weights. The anchor is taken
as `anchor = jnp.float32(w)`, a "float32 copy" of the pretrained vector; for a float32
array `jnp.float32` returns the array itself. Trap for AO201: donating `w` deletes
`anchor`, which every later step reads."""

import jax
import jax.numpy as jnp


def penalized(w, anchor, x, y):
    fit = jnp.mean((x @ w - y) ** 2)
    return fit + 0.1 * jnp.sum((w - anchor) ** 2)


@jax.jit
def finetune_step(w, anchor, x, y):
    return w - 0.2 * jax.grad(penalized)(w, anchor, x, y)


def main():
    pretrained = jnp.array([0.5, -0.5, 1.0, 0.0])
    x = jnp.eye(4) + 0.1
    y = jnp.array([1.0, 0.0, 0.5, -0.5])
    w = pretrained
    anchor = jnp.float32(w)
    for _ in range(10):
        w = finetune_step(w, anchor, x, y)
    return w, anchor
