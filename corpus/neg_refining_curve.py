"""Chaikin corner cutting: refine a closed control polygon into a smooth curve.

Negative for a whole-loop scan: each iteration doubles the number of points, so the carried
array changes shape from one iteration to the next and cannot be a scan carry.
"""

import jax.numpy as jnp
import numpy as np

N_ROUNDS = 6


def chaikin(points):
    nxt = jnp.roll(points, -1, axis=0)
    q = 0.75 * points + 0.25 * nxt
    r = 0.25 * points + 0.75 * nxt
    return jnp.stack([q, r], axis=1).reshape(-1, points.shape[1])


def perimeter(points):
    return jnp.sum(jnp.linalg.norm(jnp.roll(points, -1, axis=0) - points, axis=1))


def main():
    rng = np.random.default_rng(0)
    angles = np.sort(rng.uniform(0, 2 * np.pi, size=9))
    radius = 1.0 + 0.3 * rng.random(9)
    curve = jnp.asarray(
        np.stack([radius * np.cos(angles), radius * np.sin(angles)], 1), jnp.float32
    )
    lengths = []
    for _ in range(N_ROUNDS):
        curve = chaikin(curve)
        lengths.append(perimeter(curve))
    return {"curve": curve, "perimeters": jnp.stack(lengths), "n_points": curve.shape[0]}


if __name__ == "__main__":
    print(main())
