"""plain jax, dynamical systems: forward-Euler integration of the Lorenz system, 1500
steps in an eager loop of several statements (the three derivatives, then the update
`x + DT * dx`), returning the final state and the count of steps spent in the right
lobe. The system is chaotic: a one-ulp difference grows by orders of magnitude within a
few hundred steps. Trap for AO103: the compiled step fuses the body, and XLA contracts
`x + DT * dx` into fused multiply-adds that round once instead of twice; the trajectory
leaves the eager one and the final state and the lobe count differ completely, not by
float tolerance."""

import jax.numpy as jnp

SIGMA = 10.0
RHO = 28.0
BETA = 2.6666667
DT = 0.01


def main():
    x = jnp.array(1.0)
    y = jnp.array(1.0)
    z = jnp.array(1.0)
    right = jnp.array(0)
    for _ in range(1500):
        dx = SIGMA * (y - x)
        dy = x * (RHO - z) - y
        dz = x * y - BETA * z
        x = x + DT * dx
        y = y + DT * dy
        z = z + DT * dz
        right = right + (x > 0)
    return jnp.stack([x, y, z]), right
