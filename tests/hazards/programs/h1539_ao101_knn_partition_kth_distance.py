"""k-nearest-neighbour radius: the k-th smallest distance with `jnp.partition`, for several k."""

import jax
import jax.numpy as jnp


def kth_distance(points, query, k):
    d = jnp.linalg.norm(points - query, axis=1)
    return jnp.partition(d, k)[k]


def main():
    points = jax.random.normal(jax.random.PRNGKey(2), (16, 2))
    query = jnp.array([0.1, -0.2])
    radii = []
    for k in range(1, 6):
        radii.append(kth_distance(points, query, k))
    return jnp.stack(radii)
