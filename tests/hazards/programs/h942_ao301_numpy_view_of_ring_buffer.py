"""A replay buffer kept in a NumPy array; `recent = storage[:4]` is taken once as the
window the agent trains on, a NumPy view. Each iteration writes a new transition into
`storage` and transfers `jnp.asarray(recent)`. Trap for AO301: `recent` is never
rebound, but as a view it sees every write to `storage`; a transfer hoisted before the
loop keeps the first contents. Float64 host data (see "How it runs")."""

import jax.numpy as jnp
import numpy as np


def main():
    storage = np.zeros((8, 2), dtype=np.float64)
    recent = storage[:4]
    q = jnp.zeros(2)
    for t in range(6):
        storage[t % 4] = [t, 2.0 * t]
        batch = jnp.asarray(recent)
        q = 0.9 * q + 0.1 * batch.mean(axis=0)
    return q
