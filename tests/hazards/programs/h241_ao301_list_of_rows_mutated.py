"""Two host rows kept in a list and transferred together as a matrix; the loop
updates one row in place (`velocity += ...`), through its own name."""

import jax.numpy as jnp
import numpy as np


def main():
    position = np.zeros(3)
    velocity = np.ones(3)
    rows = [position, velocity]
    norms = []
    for t in range(5):
        velocity += 0.5 * t
        state = jnp.asarray(rows)
        norms.append(jnp.linalg.norm(state, axis=1))
    return jnp.stack(norms)
