"""Driven oscillator: the drive phase is `T0 + step * DT`, a large Python float offset."""

import jax.numpy as jnp

T0 = 5000.0
DT = 0.01


def main():
    x = jnp.array([1.0, 0.0])
    trace = []
    for step in range(50):
        t = T0 + step * DT
        force = jnp.cos(3.0 * t)
        x = x + DT * jnp.array([x[1], -x[0] + force])
        trace.append(x[0])
    return jnp.stack(trace), x
