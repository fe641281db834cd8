"""An eager k-means loop that counts the points of each cluster with
`jnp.bincount(assign)`: with no `length`, the number of bins is the largest label plus
one, read from the values. Trap for AO103: a compiled step or scan traces `assign`, and
`bincount` without `length` needs it concrete."""

import jax.numpy as jnp


def main():
    points = jnp.array([[0.0, 0.0], [0.2, 0.1], [3.0, 3.0], [3.2, 2.9], [0.1, 0.3], [6.0, 0.0]])
    centroids = jnp.array([[0.5, 0.5], [2.5, 2.5], [5.0, 1.0]])
    for _ in range(4):
        d = jnp.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
        assign = jnp.argmin(d, axis=1)
        counts = jnp.bincount(assign)
        sums = jnp.zeros_like(centroids).at[assign].add(points)
        centroids = sums / jnp.maximum(counts, 1)[:, None]
    return centroids, counts
