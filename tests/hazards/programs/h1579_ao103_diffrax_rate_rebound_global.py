"""diffrax: the vector field reads the global `DECAY`, which the loop changes between solves."""

import diffrax
import jax.numpy as jnp

DECAY = 0.5


def vector_field(t, y, args):
    return -DECAY * y


def main():
    global DECAY
    term = diffrax.ODETerm(vector_field)
    y = jnp.array([2.0])
    for seg in range(3):
        sol = diffrax.diffeqsolve(term, diffrax.Euler(), 0.0, 1.0, 0.1, y)
        y = sol.ys[-1] + 0.1
        DECAY = DECAY * 2
    return y
