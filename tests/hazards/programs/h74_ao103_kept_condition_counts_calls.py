"""A loop that asks a helper which steps to record, and the helper counts its calls (a
module global the program returns). Trap for AO103's whole-loop form of values kept
under a condition: a condition that calls a function cannot be evaluated again after
the loop (the count would double, or a helper with other effects would repeat them);
the loop must keep its step form."""

import jax.numpy as jnp

STEPS = 10
CALLS = 0


def record(step):
    global CALLS
    CALLS += 1
    return step % 3 == 0


def main():
    u = jnp.linspace(-1.0, 1.0, 8, dtype=jnp.float32)
    norms = []
    for step in range(STEPS):
        du = jnp.tanh(u) - 0.5 * u
        u = u + 0.1 * du
        if record(step):
            norms.append(jnp.sqrt(jnp.sum(u**2)))
    return u, norms, CALLS
