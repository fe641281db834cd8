"""A replay buffer keeps `obs_view = storage[:, :3]` (a view) and refills `storage` row
by row in place as transitions arrive; the agent transfers `obs_view` each step. Trap
for AO301: `obs_view` is never written by name, but its memory is; hoisting its
transfer keeps the first step's rows."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def q_values(w, obs):
    return jnp.sum(obs @ w)


def main():
    storage = np.zeros((4, 5), dtype=np.float64)
    obs_view = storage[:, :3]
    w = jnp.array([[0.5], [-0.25], [1.0]])
    qs = []
    for t in range(6):
        storage[t % 4] = np.arange(5, dtype=np.float64) * (t + 1)
        qs.append(q_values(w, jnp.asarray(obs_view)))
    return jnp.stack(qs)
