"""A jitted simulation step hands its state to the host with `jax.debug.callback`, which
copies it into a NumPy mirror; the loop then transfers the mirror for a jitted monitor.
"""

import jax
import jax.numpy as jnp
import numpy as np

MIRROR = np.zeros(3, dtype=np.float64)


def _store(x):
    np.copyto(MIRROR, np.asarray(x, dtype=np.float64))


@jax.jit
def advance(state):
    new = state * 0.9 + jnp.array([0.1, 0.2, 0.3])
    jax.debug.callback(_store, new)
    return new


@jax.jit
def monitor(m):
    return jnp.sum(m)


def main():
    state = jnp.ones(3)
    seen = []
    for _ in range(4):
        state = advance(state)
        jax.effects_barrier()
        seen.append(monitor(jnp.asarray(MIRROR)))
    return jnp.stack(seen)
