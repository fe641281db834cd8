"""plain jax, mesh generation: `snap_vertices(verts, cell)` snaps each vertex to a grid
of spacing `cell`, rounding with the magic-number trick `(t + 1.5 * 2**23) -
1.5 * 2**23`, and writes it into a new array with `.at[i].set`, one vertex per iteration. Eagerly
every operation rounds, so each vertex lands on the grid and the duplicates merge. Trap
for AO401: the fori form runs the function under `@jax.jit`, and XLA's algebraic
simplifier folds `(t + C) - C` to `t`: nothing is snapped and no vertex merges."""

import jax
import jax.numpy as jnp

MAGIC = 12582912.0


def snap_vertices(verts, cell):
    snapped = jnp.zeros(verts.shape)
    for i in range(verts.shape[0]):
        snapped = snapped.at[i].set(((verts[i] / cell + MAGIC) - MAGIC) * cell)
    return snapped


def main():
    verts = jax.random.uniform(jax.random.PRNGKey(11), (10, 2)) * 2.0
    snapped = snap_vertices(verts, 0.5)
    return snapped, int(jnp.unique(snapped, axis=0).shape[0])
