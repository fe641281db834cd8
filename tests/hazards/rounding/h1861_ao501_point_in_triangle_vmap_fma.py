"""plain jax, computational geometry: a mesh tool tests which query points lie inside a
triangle, on its edge, or outside, with three orientation tests per point (signs of
2-D cross products), one point at a time in a list comprehension, stacked. The query
points on the triangle's diagonal edge give cross products of `u * v - u * v`, exactly 0
eagerly ("on the edge"). Trap for AO501: the fix runs the function jitted and vmapped,
and XLA contracts `a * b - c * d` into a fused multiply-add, leaving one product's
rounding error instead of 0: edge points are classified inside or outside."""

import jax.numpy as jnp


def classify(p):
    a = jnp.array([0.0, 0.0])
    b = jnp.array([0.9, 0.1])
    c = jnp.array([0.7, 0.7])

    def cross(u, v, w):
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])

    signs = jnp.sign(jnp.stack([cross(a, b, p), cross(b, c, p), cross(c, a, p)]))
    on_edge = jnp.any(signs == 0)
    inside = jnp.all(signs > 0)
    return jnp.where(on_edge, 0, jnp.where(inside, 1, -1)).astype(jnp.int32)


def main():
    t = jnp.arange(1, 7, dtype=jnp.float32) * 0.11
    queries = jnp.stack([t, t], axis=1)
    labels = jnp.stack([classify(q) for q in queries])
    return labels
