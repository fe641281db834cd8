"""Value iteration that keeps every few iterates in a preallocated list of slots (for
plotting convergence). Trap for AO201: list slots alias the value function that the
next iteration's donation deletes."""

import jax
import jax.numpy as jnp

N_STATES = 6
GAMMA = 0.9


@jax.jit
def bellman(values, rewards, transitions):
    return jnp.max(rewards + GAMMA * transitions @ values, axis=0)


def main():
    rewards = jnp.arange(2 * N_STATES, dtype=jnp.float32).reshape(2, N_STATES) / 10.0
    transitions = jnp.stack(
        [jnp.roll(jnp.eye(N_STATES), 1, axis=1), jnp.roll(jnp.eye(N_STATES), -1, axis=1)]
    )
    values = jnp.zeros(N_STATES)
    slots = [None] * 4
    for it in range(20):
        values = bellman(values, rewards, transitions)
        if it % 5 == 0:
            slots[it // 5] = values
    return slots, values
