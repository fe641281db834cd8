"""plain jax, clustering: Lloyd's k-means in an eager loop of several statements
(squared distances, `argmin` assignment, centroid update as masked means). The data is
symmetric: two starting centroids mirror each other across the diagonal, and points on
the diagonal are exactly equidistant from both, `(t-a)^2 + (t-b)^2` against
`(t-b)^2 + (t-a)^2`, the same sum eagerly; `argmin` breaks the tie toward cluster 0.
Trap for AO103: the compiled step contracts each sum of squares into fused multiply-adds
in a different order for the two centroids, the distances differ by an ulp, and
diagonal points switch clusters: assignments and centroids change."""

import jax.numpy as jnp


def main():
    t = jnp.linspace(0.05, 0.95, 7)
    diagonal = jnp.stack([t, t], axis=1)
    above = jnp.array([[0.2, 0.9], [0.3, 0.7], [0.1, 0.6]])
    below = above[:, ::-1]
    points = jnp.concatenate([diagonal, above, below])
    centroids = jnp.array([[0.31, 0.77], [0.77, 0.31]])
    for _ in range(3):
        d = jnp.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
        labels = jnp.argmin(d, axis=1)
        onehot = (labels[:, None] == jnp.arange(2)[None, :]).astype(jnp.float32)
        centroids = (onehot.T @ points) / jnp.sum(onehot, axis=0)[:, None]
    return labels, centroids
