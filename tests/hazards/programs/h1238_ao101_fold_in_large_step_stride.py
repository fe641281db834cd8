"""Per-step dropout keys derived with `jax.random.fold_in(key, step * STRIDE)`, where a
large odd `STRIDE` spreads the seeds. Eagerly `step * STRIDE` is an exact Python int
that `fold_in` takes modulo 2**32; traced as int32 it overflows. Trap for AO101: jitting
`dropout_step` with `step` traced changes the keys (or fails)."""

import jax
import jax.numpy as jnp

STRIDE = 2_654_435_761


def dropout_step(w, key, step):
    k = jax.random.fold_in(key, step * STRIDE % 2**32)
    mask = jax.random.bernoulli(k, 0.7, w.shape)
    return jnp.where(mask, w * 1.1, w * 0.9)


def main():
    key = jax.random.PRNGKey(0)
    w = jnp.ones(6)
    for step in range(5):
        w = dropout_step(w, key, step)
    return w
