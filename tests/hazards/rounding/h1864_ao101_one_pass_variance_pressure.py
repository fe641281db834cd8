"""plain jax, sensor monitoring: barometric readings near 1013 hPa arrive in batches;
`batch_stats` computes the variance the one-pass way, `E[x^2] - E[x]^2`, a common
idiom that cancels catastrophically in float32 (E[x^2] is about 1e6, the variance under
0.01). Eagerly each operation rounds on its own; the loop collects the variances.
Trap for AO101: jitted, XLA fuses the squares into the reductions and sums in another
order, and the cancellation turns those last-bit differences into a different variance
(tens of percent), far outside float tolerance: the premise that jit changes values
only by rounding fails for an ill-conditioned formula."""

import jax
import jax.numpy as jnp


def batch_stats(readings):
    mean = jnp.mean(readings)
    var = jnp.mean(readings * readings) - mean * mean
    return jnp.stack([mean, var])


def main():
    key = jax.random.PRNGKey(0)
    stats = []
    for _ in range(6):
        key, sub = jax.random.split(key)
        readings = 1013.25 + 0.8 * jax.random.normal(sub, (1000,))
        stats.append(batch_stats(readings))
    return jnp.stack(stats)
