# BROKEN by the default rewrite (AO402, safe fix applied: the list form).
# Fix: `track = jnp.concatenate([track, piece])` becomes `track_parts.append(piece)` in
# the loop and one `jnp.concatenate(track_parts)` after it.
# Step by step, the bfloat16 accumulator absorbs the first three weakly typed pieces
# (Python-number readings) as bfloat16 (rounded), and only the first strong float32
# piece promotes it. Joined once, all pieces promote together to float32 and the early
# readings keep their float32 values.
# Outcome: original [0, 0.01300049, 0.11279297, 0.21289062, ...] (bfloat16-rounded);
# default rewrite [0, 0.013, 0.113, 0.213, ...]: "values differ (2 of 7 elements at
# [2]: 0.11279297 -> 0.113)". The message claims "type promotion is associative",
# which does not hold with weak types.
# Hazard class: dtype/weak-type changes in deferred joins (issue 27, class 5).
"""A trajectory grown with `jnp.concatenate` starts as bfloat16 (the sensor's
format); its first pieces are Python-number readings (weakly typed, so the
accumulator stays bfloat16 and rounds them), later pieces come from a float32 model.
Joined once at the end, the early readings would never be rounded to bfloat16."""

import jax.numpy as jnp


def main():
    track = jnp.zeros((1,), dtype=jnp.bfloat16)
    x = jnp.float32(0.1)
    for t in range(6):
        x = x * 1.37 + 0.01
        piece = jnp.asarray(0.1 * t + 0.013)[None] if t < 3 else x[None]
        track = jnp.concatenate([track, piece])
    return track
