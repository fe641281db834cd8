"""`jax.random.key_data` of a raw key returns the key itself. Trap for AO201 (new buffers
of `jax.random`): donating `key` donates `data`, the same buffer, read after the loop (the
CPU backend may keep it: XLA may decline a donation it cannot use)."""

import jax
import jax.numpy as jnp


@jax.jit
def step(key, x):
    return jax.random.fold_in(key, 1), x + jax.random.uniform(key, x.shape)


def main():
    key = jax.random.PRNGKey(0)
    data = jax.random.key_data(key)
    x = jnp.zeros(3)
    for _ in range(3):
        key, x = step(key, x)
    return data, x
