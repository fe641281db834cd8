"""A phase schedule from the square of the step counter, one helper deep. Trap for
AO101: `phase(k)` computes `k * k * 7919` in exact Python ints; jitted, `k` arrives as
an int32 tracer and the product wraps around for k > 520."""

import jax.numpy as jnp


def phase(k):
    return (k * k * 7919) % 360


def rotate(v, k):
    angle = jnp.deg2rad(phase(k) * 1.0)
    return jnp.cos(angle) * v + 0.01 * jnp.sin(angle)


def main():
    v = jnp.ones(3)
    for k in range(600):
        v = rotate(v, k)
    return v
