"""k-means whose codebook starts as "the first `k` points", `points[:k]`, with `k`
capped at the number of points. With as many centroids as points the slice is the
data array itself. Trap for AO201: donating `centroids` deletes `points`, which every
later step reads."""

import jax
import jax.numpy as jnp


@jax.jit
def kmeans_step(centroids, points):
    d = jnp.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
    assign = jax.nn.one_hot(jnp.argmin(d, axis=1), centroids.shape[0])
    counts = assign.sum(0)[:, None]
    new = (assign.T @ points) / jnp.maximum(counts, 1.0)
    return jnp.where(counts > 0, 0.5 * (new + centroids), centroids)


def main():
    points = jnp.array([[0.0, 0.0], [0.2, 0.1], [3.0, 3.0], [3.1, 2.9], [0.1, 0.3]])
    k = min(8, points.shape[0])
    centroids = points[:k]
    for _ in range(4):
        centroids = kmeans_step(centroids, points)
    inertia = jnp.min(jnp.sum((points[:, None] - centroids[None]) ** 2, axis=-1), axis=1).sum()
    return centroids, inertia
