"""An exponential-decay multiplier sampled every 1000 steps for a plot: `decay ** step`,
`decay` an array.
"""

import jax.numpy as jnp

DECAY = 0.9999
WARMUP = 2000


def main():
    decay = jnp.asarray(DECAY)
    area = jnp.zeros(())
    points = []
    for step in range(0, 20000, 1000):
        mult = decay**step
        mult = mult * jnp.minimum(1.0, (step + 1) / WARMUP)
        area = area + 1000 * mult
        points.append(mult)
    return area, jnp.stack(points)
