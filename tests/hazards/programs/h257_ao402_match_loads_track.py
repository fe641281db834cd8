# BROKEN by the default rewrite (AO402, safe fix applied: the list form), and NOT
# IDEMPOTENT.
# Fix: `track = jnp.concatenate([track, x[None]])` becomes `track_parts.append(x[None])`
# and one `track = jnp.concatenate(track_parts)` after the loop.
# The loop also rebinds `track` through a `match` capture (`case ("load", track):`), so
# the growth is not the accumulator's only write; the list form drops the load.
# Outcome: original [9, 9, 0.0625] (float32[3]); default rewrite
# [0, 0.5, 0.25, 0.125, 0.0625] ("jax float32[3] became float32[5]").
# Second rewrite: AO103 (safe) then compiles `x = x * 0.5; track_parts.append(x[None])`
# as a jitted `_main_step` donating `x`, so the first rewrite is not a fixed point.
# Hazard class: a binding form the loop-variable check does not see (issue 27, class 3;
# deferred join).
"""Trajectory grown with `jnp.concatenate`; a command list may replace the whole
trajectory (`case ("load", track):` rebinds the accumulator after its growth)."""

import jax.numpy as jnp

COMMANDS = [("step",), ("step",), ("load", jnp.array([9.0, 9.0])), ("step",)]


def main():
    track = jnp.zeros(1)
    x = jnp.float32(1.0)
    for command in COMMANDS:
        x = x * 0.5
        track = jnp.concatenate([track, x[None]])
        match command:
            case ("load", track):
                pass
            case _:
                pass
    return track
