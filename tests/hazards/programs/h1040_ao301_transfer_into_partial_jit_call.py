"""The step is jitted by calling the partial directly, `masked_update =
functools.partial(jax.jit, donate_argnums=(0, 1))(masked_update_impl)` (the decorator
spelling, applied as a call). The loop converts the host mask every iteration. Trap for
AO301: the step donates the mask; hoisted before the loop, the one device mask is
deleted by the first call."""

import functools

import jax
import jax.numpy as jnp
import numpy as np


def masked_update_impl(w, mask):
    return w - 0.1 * mask * w, mask


masked_update = functools.partial(jax.jit, donate_argnums=(0, 1))(masked_update_impl)


def main():
    mask_np = np.array([1.0, 0.0, 1.0, 0.5], dtype=np.float32)
    w = jnp.arange(1.0, 5.0)
    for _ in range(6):
        w, _ = masked_update(w, jnp.asarray(mask_np))
    return w
