"""equinox: `@eqx.filter_jit(donate="all")` on a masked update that takes the weights
and the mask; the loop converts the host mask with `jnp.asarray(mask_np)` on every call.
Trap for AO301: `donate="all"` donates the mask too; hoisted before the loop, the one
device mask is deleted by the first call and the second call fails."""

import equinox as eqx
import jax.numpy as jnp
import numpy as np


@eqx.filter_jit(donate="all")
def apply_mask(w, mask):
    return w * mask + 0.1


def main():
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    w = jnp.ones(4)
    for _ in range(5):
        w = apply_mask(w, jnp.asarray(mask_np))
    return w
