"""An eager augmentation loop that seeds each epoch with
`jax.random.PRNGKey(BASE_SEED + epoch)`, where `BASE_SEED` is a date-stamp integer
beyond int32. Eagerly `PRNGKey` takes a 64-bit Python int; traced as an int32 loop
index, `BASE_SEED + epoch` overflows. Trap for AO103: a compiled step or scan changes
the keys or fails."""

import jax
import jax.numpy as jnp

BASE_SEED = 20240601123


def main():
    w = jnp.zeros(3)
    for epoch in range(4):
        key = jax.random.PRNGKey(BASE_SEED + epoch)
        noise = jax.random.normal(key, (3,))
        w = 0.5 * w + noise
    return w
