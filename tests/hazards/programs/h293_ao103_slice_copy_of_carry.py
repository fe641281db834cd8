"""Particle filter over a stream of observations: the prior is kept as
`prior = particles[:]` (a NumPy habit for "copy"; a JAX slice of everything is the
same array) and compared with the posterior at the end."""

import jax.numpy as jnp


def main():
    particles = jnp.linspace(-1.0, 1.0, 6)
    weights = jnp.full(6, 1.0 / 6.0)
    observations = jnp.array([0.3, 0.1, -0.2, 0.4, 0.0])
    prior = particles[:]
    for obs in observations:
        particles = 0.9 * particles + 0.1 * obs
        likelihood = jnp.exp(-((particles - obs) ** 2))
        weights = weights * likelihood
        weights = weights / weights.sum()
    return jnp.sum(weights * particles), jnp.abs(particles - prior).max()
