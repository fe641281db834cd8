"""Mixed precision bookkeeping: the master weights are kept "as float32" with
`w.astype(jnp.float32)`, a no-op that returns the same array when `w` is float32
already. The master copy is compared with the trained weights at the end."""

import jax
import jax.numpy as jnp


@jax.jit
def sgd_update(w, g):
    return w - 0.05 * g


def gradient(w):
    return 2.0 * (w - jnp.array([1.0, 2.0, 3.0]))


def main():
    w = jnp.zeros(3, dtype=jnp.float32)
    master = w.astype(jnp.float32)
    for _ in range(30):
        g = gradient(w)
        w = sgd_update(w, g)
    drift = jnp.abs(master - w).max()
    return w, drift, master
