"""A step that scales its float32 NumPy batch in place. Trap for AO101: eagerly,
`x *= 2.0` writes the caller's array, and the loop keeps every batch it handed over;
jitted, `x` is a traced copy and `*=` only rebinds it, so the kept batches stay unscaled.
The batch's dtype is one jit keeps (float32), so only the in-place write stands between
jit and the results.
"""

import jax.numpy as jnp
import numpy as np

STEPS = 5


def update(w, x):
    x *= 2.0
    return w - 0.01 * jnp.sum(x) * w


def main():
    rng = np.random.default_rng(0)
    w = jnp.ones(3)
    kept = []
    for _ in range(STEPS):
        x = rng.normal(size=(8, 3)).astype(np.float32)
        w = update(w, x)
        kept.append(x)
    return w, np.stack(kept)
