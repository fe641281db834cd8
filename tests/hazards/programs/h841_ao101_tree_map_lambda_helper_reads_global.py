"""An SGD update `apply(params, grads)` that maps `lambda p, g: clipped_step(p, g)` over
the params; `clipped_step` reads the global `CLIP`, halved by `tighten()` each epoch.
Trap for AO101: eager `jax.tree.map` calls the lambda, and so `clipped_step`, on every
update; jitted, the first `CLIP` is kept."""

import jax
import jax.numpy as jnp

CLIP = 1.0


def clipped_step(p, g):
    return p - 0.1 * jnp.clip(g, -CLIP, CLIP)


def apply(params, grads):
    return jax.tree.map(lambda p, g: clipped_step(p, g), params, grads)


def tighten():
    global CLIP
    CLIP = CLIP * 0.5


def main():
    params = {"w": jnp.array([3.0, -2.0]), "b": jnp.array(1.5)}
    for _ in range(3):
        for _ in range(2):
            grads = jax.tree.map(lambda p: 4.0 * p, params)
            params = apply(params, grads)
        tighten()
    return params
