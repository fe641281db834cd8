"""A loop keeps a Python float fraction of the bins, read from a config (0.29), and turns
it into an integer count on the device each step with `jnp.asarray(frac * 100, dtype=jnp.int32)`.
Eagerly Python computes 0.29 * 100 = 28.999999999999996 in float64, which truncates to
28; traced, `frac` is a float32 and the product rounds to 29.0, which truncates to 29.
Trap for AO103: compiling the loop's device work must not move the conversion of a
Python float to an integer dtype into float32."""

import jax
import jax.numpy as jnp

CONFIG = {"keep": "0.29"}


@jax.jit
def masked_mean(x, count):
    keep = jnp.arange(x.shape[0]) < count
    return jnp.sum(jnp.where(keep, x, 0.0)) / count


def main():
    x = jnp.linspace(0.0, 1.0, 100)
    total = jnp.zeros(())
    frac = float(CONFIG["keep"])
    for step in range(5):
        count = jnp.asarray(frac * 100, dtype=jnp.int32)
        total = total + masked_mean(x * (step + 1), count)
    return total, count
