"""Event recorder: timestamps start as an empty int32 array and each new entry is a row
of step indices scaled by a float time step, so the first concatenate promotes the
accumulator to float32. Trap for AO402: the rewrite must keep the promotion (a buffer
preallocated with the initial int32 dtype would truncate or reject the rows)."""

import jax.numpy as jnp

DT = 0.25


def main():
    times = jnp.zeros((0, 2), jnp.int32)
    for step in range(10):
        stamp = jnp.full((2,), step, jnp.int32) * DT
        times = jnp.concatenate([times, stamp[None]])
    return times
