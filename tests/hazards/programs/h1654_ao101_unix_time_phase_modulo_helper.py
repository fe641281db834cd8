"""A feature helper called every step with a Unix time in seconds (a Python float):
`(OMEGA * t) % (2 * pi)` is computed by Python in float64. Jitted, `t` is a float32
tracer: the product, about 1.8e8, is off by up to 8, so its remainder, the phase, is
noise and every feature changes. Trap for AO101: jitting the helper must not move a
remainder of a Python float into float32."""

import math

import jax.numpy as jnp

OMEGA = 2 * math.pi / 60.0


def features(t, offsets):
    phase = (OMEGA * t) % (2 * math.pi) + OMEGA * offsets
    return jnp.stack([jnp.sin(phase), jnp.cos(phase)], axis=1)


def main():
    offsets = jnp.linspace(0.0, 50.0, 8)
    t_start = 1_700_000_017.0
    total = jnp.zeros((8, 2))
    for step in range(6):
        total = total + features(t_start + 7.0 * step, offsets)
    return total
