"""diffrax: a trajectory integrated segment by segment, y0 carried, the segment ends kept."""

import diffrax
import jax.numpy as jnp


def vector_field(t, y, args):
    return -args * y + jnp.sin(t)


def main():
    term = diffrax.ODETerm(vector_field)
    solver = diffrax.Tsit5()
    y = jnp.array([1.0, 0.5])
    ends = []
    t0 = 0.0
    for seg in range(4):
        sol = diffrax.diffeqsolve(term, solver, t0, t0 + 0.5, 0.05, y, args=0.7)
        y = sol.ys[-1]
        ends.append(y)
        t0 = t0 + 0.5
    return jnp.stack(ends), t0
