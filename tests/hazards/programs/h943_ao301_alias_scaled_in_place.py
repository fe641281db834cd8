"""An annealing loop whose host temperature profile is scaled in place,
`profile *= 0.5`; the loop transfers `jnp.asarray(schedule)`, where `schedule = profile`
was bound before the loop. Trap for AO301: `schedule` is not rebound, but `*=` on a
NumPy array changes it in place through the other name. Float64 host data."""

import jax.numpy as jnp
import numpy as np


def main():
    profile = np.array([1.0, 0.5, 0.25], dtype=np.float64)
    schedule = profile
    x = jnp.ones(3)
    for _ in range(4):
        temps = jnp.asarray(schedule)
        x = x * jnp.exp(-temps)
        profile *= 0.5
    return x
