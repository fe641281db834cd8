"""Shared jit options live in a module-level dict, `JIT_OPTS = {"donate_argnums":
(0, 1)}`, spread into `jax.jit(apply_mask, **JIT_OPTS)`: the step donates both its
arguments. The loop transfers the host mask with `jnp.asarray(mask_np)` every
iteration. Trap for AO301: hoisting the transfer hands the step one device mask that
the first call deletes."""

import jax
import jax.numpy as jnp
import numpy as np

JIT_OPTS = {"donate_argnums": (0, 1)}


def apply_mask(w, mask):
    return w * mask + 0.1, mask


masked_step = jax.jit(apply_mask, **JIT_OPTS)


def main():
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    w = jnp.ones(4)
    for _ in range(5):
        m = jnp.asarray(mask_np)
        w, _ = masked_step(w, m)
    return w
