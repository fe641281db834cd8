"""A chaotic map iterated eagerly: `step(state)` advances a kicked rotor (the Chirikov
standard map, K = 2.5) 400 times. Jitting `step` fuses its operations, which agrees
with eager execution to float rounding per call; the map is chaotic and the rounding
differences grow until the returned state differs. Trap for AO101."""

import jax.numpy as jnp


def step(state):
    theta, p = state[0], state[1]
    p = p + 2.5 * jnp.sin(theta)
    theta = theta + p
    theta = theta - 2.0 * jnp.pi * jnp.floor(theta / (2.0 * jnp.pi))
    return jnp.stack([theta, p])


def main():
    state = jnp.array([0.5, 0.3])
    for _ in range(400):
        state = step(state)
    return state
