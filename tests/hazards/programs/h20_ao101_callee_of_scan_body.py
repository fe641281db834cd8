"""Lorenz system integrated with RK4 inside `lax.scan`; the scan body loops over the
four stages and `rk_stage` reads the Butcher tableau (Python tuples) at the stage
index. Trap for AO101: `rk_stage` runs only under scan's trace; jitted on its own,
the stage index becomes a tracer and cannot index a tuple."""

import jax
import jax.numpy as jnp

DT = 0.01
RK4_NODES = (0.0, 0.5, 0.5, 1.0)
RK4_WEIGHTS = (1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0)


SIGMA, RHO, BETA = 10.0, 28.0, 8.0 / 3.0


def rk_stage(y, k_prev, stage):
    """The Lorenz vector field at the stage's point."""
    p = y + RK4_NODES[stage] * DT * k_prev
    return jnp.stack([SIGMA * (p[1] - p[0]), p[0] * (RHO - p[2]) - p[1], p[0] * p[1] - BETA * p[2]])


def rk4_step(y, _):
    k = jnp.zeros_like(y)
    increment = jnp.zeros_like(y)
    for stage in range(4):
        k = rk_stage(y, k, stage)
        increment = increment + RK4_WEIGHTS[stage] * k
    y = y + DT * increment
    return y, y


def main():
    y0 = jnp.array([1.0, 1.0, 1.0])
    final, trajectory = jax.lax.scan(rk4_step, y0, None, length=100)
    return final, trajectory[::10]
