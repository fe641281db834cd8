"""An ahead-of-time compiled step, `jax.jit(apply_mask, donate_argnums=(0, 1)).lower(
...).compile()`, donates both its arguments; the loop transfers the host mask with
`jnp.asarray(mask_np)` every iteration and hands it to the compiled step. Trap for
AO301: hoisting the transfer gives the compiled step one device mask that the first
call deletes; the second call fails."""

import jax
import jax.numpy as jnp
import numpy as np


def apply_mask(w, mask):
    return w * mask + 0.1, mask


def main():
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    w = jnp.ones(4)
    compiled = jax.jit(apply_mask, donate_argnums=(0, 1)).lower(w, jnp.asarray(mask_np)).compile()
    for _ in range(5):
        m = jnp.asarray(mask_np)
        w, _ = compiled(w, m)
    return w
