"""plain jax, sensor calibration: each sensor's trace (temperatures in kelvin, about 300
with small noise) is summarized by `noise_level(trace)`, the one-pass standard
deviation `sqrt(max(E[x^2] - E[x]^2, 0))`, one sensor at a time in a list
comprehension, stacked. In float32 `E[x^2]` is about 9e4 and the variance about 0.01, so
the subtraction cancels catastrophically: the result is set by the last bits of the two
means. Trap for AO501: vmapped and jitted, XLA reduces the batch in another order (and
fuses the squares into the reduction); those last-bit differences become noise levels
that differ by tens of percent, or drop to 0."""

import jax
import jax.numpy as jnp


def noise_level(trace):
    mean = jnp.mean(trace)
    var = jnp.mean(trace * trace) - mean * mean
    return jnp.sqrt(jnp.maximum(var, 0.0))


def main():
    traces = 300.0 + 0.3 * jax.random.normal(jax.random.PRNGKey(0), (8, 1000))
    levels = jnp.stack([noise_level(t) for t in traces])
    return levels
