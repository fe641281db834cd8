"""plain jax, data analysis: `histogram(values, lo, width)` builds 8 bin edges as
`lo + k * width` and counts the values in each half-open bin; the loop histograms the
readings of each sensor, which were logged on the same grid (`lo + k * width`, computed
eagerly). Eagerly the edges round exactly as the readings did, so each reading sits on
its bin's left edge. Trap for AO101: jitted, XLA contracts `lo + k * width` into a fused
multiply-add that rounds once: some edges move by an ulp past the readings, which fall
into the neighbouring bin, and the integer counts change."""

import jax.numpy as jnp


def histogram(values, lo, width):
    edges = lo + jnp.arange(9, dtype=jnp.float32) * width
    inside = (values[:, None] >= edges[None, :-1]) & (values[:, None] < edges[None, 1:])
    return jnp.sum(inside, axis=0)


def main():
    counts = []
    for sensor in range(3):
        lo = jnp.float32(0.1 + 0.37 * sensor)
        width = jnp.float32(0.013 + 0.0071 * sensor)
        readings = lo + jnp.array([0, 1, 1, 2, 3, 3, 3, 5, 6, 7], jnp.float32) * width
        counts.append(histogram(readings, lo, width))
    return jnp.stack(counts)
