"""An eager loop records which steps it logged, `logged_steps.append(i)`, with the
weights, every fourth step. Trap for AO103: in a whole-loop scan the index is traced;
the list would receive device scalars (or stacked rows) instead of Python ints."""

import jax.numpy as jnp


def main():
    w = jnp.array([1.0, -1.0])
    target = jnp.array([0.5, 0.25])
    logged_steps = []
    snaps = []
    for i in range(12):
        w = w + 0.2 * (target - w)
        w = w * 0.99
        if i % 4 == 0:
            logged_steps.append(i)
            snaps.append(w)
    return logged_steps, jnp.stack(snaps)
