"""The jitted steps are kept in a registry dict, `STEPS = {"mask": jax.jit(apply_mask,
donate_argnums=(0, 1))}`, and the loop calls `STEPS["mask"](w, jnp.asarray(mask_np))`.
Trap for AO301: the step donates the transferred mask; hoisting `jnp.asarray(mask_np)`
before the loop gives every call the one device mask the first call deletes."""

import jax
import jax.numpy as jnp
import numpy as np


def apply_mask(w, mask):
    return w * mask + 0.1, mask


STEPS = {"mask": jax.jit(apply_mask, donate_argnums=(0, 1))}


def main():
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    w = jnp.ones(4)
    for _ in range(5):
        w, _ = STEPS["mask"](w, jnp.asarray(mask_np))
    return w
