"""plain jax, path analysis: a loop walks a GPS polyline and counts left turns, right
turns and straight segments from the sign of the cross product of consecutive segment
vectors, keeping running counts as arrays. The track is straight along the diagonal
(every point `(x, x)`), so each cross product is `u * v - u * v`, exactly 0 eagerly: all
segments straight. Trap for AO103: the compiled step fuses the body into one XLA
program, which contracts `a * b - c * d` into a fused multiply-add, leaving a product's
rounding error: straight segments count as turns."""

import jax.numpy as jnp


def main():
    xs = jnp.cumsum(jnp.full(12, 0.173, dtype=jnp.float32))
    track = jnp.stack([xs, xs], axis=1)
    left = jnp.zeros((), jnp.int32)
    right = jnp.zeros((), jnp.int32)
    straight = jnp.zeros((), jnp.int32)
    for i in range(1, 11):
        d1 = track[i] - track[i - 1]
        d2 = track[i + 1] - track[i]
        cross = d1[0] * d2[1] - d1[1] * d2[0]
        left = left + (cross > 0).astype(jnp.int32)
        right = right + (cross < 0).astype(jnp.int32)
        straight = straight + (cross == 0).astype(jnp.int32)
    return left, right, straight
