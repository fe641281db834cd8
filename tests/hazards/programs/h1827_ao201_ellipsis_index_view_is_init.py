"""plain jax: `state = init_state[...]`, a NumPy habit for "a copy", which on a jax
array returns the array itself; the jitted simulation step replaces `state` and the
program returns the energy change from the initial state. Trap for AO201: donating
`state` deletes `init_state`."""

import jax
import jax.numpy as jnp


@jax.jit
def leapfrog(state, dt):
    q, p = state[0], state[1]
    p = p - 0.5 * dt * q
    q = q + dt * p
    p = p - 0.5 * dt * q
    return jnp.stack([q, p])


def energy(state):
    return 0.5 * jnp.sum(state**2)


def main():
    init_state = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    state = init_state[...]
    for _ in range(10):
        state = leapfrog(state, 0.1)
    return energy(state) - energy(init_state)
