"""A relaxation that keeps a snapshot every other step until it holds three: the
condition reads the list it appends to. Trap for AO103's whole-loop form of values
kept under a condition: evaluated again after the loop, `len(snapshots) < 3` would see
the list as it fills there, not as the loop saw it; the loop must keep its step form."""

import jax.numpy as jnp

STEPS = 15


def main():
    u = jnp.linspace(0.0, 1.0, 8, dtype=jnp.float32)
    snapshots = []
    for step in range(STEPS):
        flux = jnp.roll(u, 1) - u
        u = u + 0.2 * flux
        if step % 2 == 0 and len(snapshots) < 3:
            snapshots.append(u)
    return u, snapshots
