"""Eager loop: `hits` starts as a Python int 0 and gains `jnp.sum(x > t)` (int32), then
is halved with `/ 2` in the same body: the carry becomes float32 after one step.
"""

import jax.numpy as jnp


def main():
    x = jnp.linspace(-1.0, 1.0, 9)
    hits = 0
    for t in range(4):
        hits = hits + jnp.sum(x > 0.1 * t)
        hits = hits / 2
        x = x * 1.1
    return hits, x
