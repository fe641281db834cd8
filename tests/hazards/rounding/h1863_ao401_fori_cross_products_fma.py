"""plain jax, geometry: `collinear_flags(points)` fills a flag array with `.at[i].set`,
one entry per consecutive triple, 1 where the triple is collinear (cross product exactly
0). The points lie on the diagonal `(x, x)`, so every cross product is `u * v - u * v`,
exactly 0 eagerly. Trap for AO401: the fori form runs the function under `@jax.jit`,
and XLA contracts `a * b - c * d` into a fused multiply-add: a product's rounding error
remains and the flags drop to 0."""

import jax.numpy as jnp


def collinear_flags(points):
    n = points.shape[0] - 2
    flags = jnp.zeros(n, dtype=jnp.int32)
    for i in range(n):
        p, q, r = points[i], points[i + 1], points[i + 2]
        cross = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        flags = flags.at[i].set((cross == 0).astype(jnp.int32))
    return flags


def main():
    xs = jnp.array([0.0, 0.31, 0.67, 1.13, 1.71, 2.29, 2.9], dtype=jnp.float32)
    points = jnp.stack([xs, xs], axis=1)
    return collinear_flags(points)
