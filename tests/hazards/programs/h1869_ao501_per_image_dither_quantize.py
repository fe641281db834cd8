"""plain jax, image processing: each image of a batch is converted to 4-bit levels by
`to_levels(img)`, which scales to 0..15 and rounds with the magic-number trick
`(t + 1.5 * 2**23) - 1.5 * 2**23`, one image at a time in a list comprehension,
stacked; the program also counts the distinct values. Eagerly every operation rounds,
so the images hold 16 levels. Trap for AO501: the fix runs `to_levels` jitted and
vmapped, and XLA's algebraic simplifier folds `(t + C) - C` to `t`: nothing is rounded
and the images keep their continuous values."""

import jax
import jax.numpy as jnp


def to_levels(img):
    t = img * 15.0
    rounded = (t + 12582912.0) - 12582912.0
    return rounded / 15.0


def main():
    images = jax.random.uniform(jax.random.PRNGKey(7), (6, 4, 4))
    quantized = jnp.stack([to_levels(img) for img in images])
    return quantized, int(jnp.unique(quantized).size)
