"""Eager relaxation loop of device statements; a metric factory returns
`report(v, ref=u0)`, whose default argument holds the field it was made from.
"""

import jax.numpy as jnp


def make_report(u0):
    def report(v, ref=u0):
        return jnp.abs(v - ref).sum()

    return report


def main():
    u = jnp.sin(jnp.linspace(0.0, 3.0, 8))
    report = make_report(u)
    for _ in range(5):
        lap = jnp.roll(u, 1) - 2.0 * u + jnp.roll(u, -1)
        u = u + 0.2 * lap
    return u, report(u)
