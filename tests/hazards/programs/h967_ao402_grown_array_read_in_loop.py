"""A trajectory grown with `jnp.concatenate` whose running mean (of the rows so far) is
fed back into the next state. Trap for AO402: preallocating the trajectory makes the
rows not yet written part of what `traj.mean(axis=0)` reads inside the loop."""

import jax.numpy as jnp


def main():
    x = jnp.array([1.0, 2.0])
    traj = jnp.zeros((0, 2))
    for _ in range(5):
        traj = jnp.concatenate([traj, x[None, :]])
        x = 0.5 * x + 0.5 * traj.mean(axis=0) + 0.1
    return traj, x
