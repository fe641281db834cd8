"""Replay memory: rewards are pushed by a helper that does `queue += [r]` on an alias
of the list the agent transfers. Trap for AO301: `+=` on a list parameter extends the
caller's list in place, through `memory = rewards`."""

import jax.numpy as jnp


def push(queue, r):
    queue += [r]


def main():
    rewards = [0.0, 1.0]
    memory = rewards
    v = jnp.zeros(())
    for t in range(10):
        push(memory, 0.5 * t)
        r = jnp.asarray(rewards)
        v = 0.9 * v + jnp.mean(r)
    return v
