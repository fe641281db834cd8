"""A damped-oscillator design loop that reads the characteristic roots with
`jnp.roots(coeffs)` each step. `jnp.roots` strips leading zeros by default, which needs
concrete coefficients. Trap for AO101: jitting `decay_rate` fails on the traced
coefficients."""

import jax.numpy as jnp


def decay_rate(damping, stiffness):
    coeffs = jnp.stack([jnp.ones(()), damping, stiffness])
    return -jnp.max(jnp.roots(coeffs).real)


def main():
    damping = jnp.array(0.5)
    stiffness = jnp.array(2.0)
    rates = []
    for _ in range(4):
        rate = decay_rate(damping, stiffness)
        rates.append(rate)
        damping = damping + 0.5 * (1.0 - rate)
    return jnp.stack(rates), damping
