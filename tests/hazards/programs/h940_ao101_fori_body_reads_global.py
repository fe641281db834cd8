"""A Jacobi smoother `smooth(u)` running `jax.lax.fori_loop(0, 3, relax, u)`; `relax`
reads the global damping `OMEGA`, which the multigrid driver changes between cycles with
`set_omega`. Trap for AO101: jitting `smooth` freezes `OMEGA`, read only inside the
function handed to `fori_loop`."""

import jax
import jax.numpy as jnp

OMEGA = 0.5


def relax(_, u):
    neighbours = 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))
    return (1 - OMEGA) * u + OMEGA * neighbours


def smooth(u):
    return jax.lax.fori_loop(0, 3, relax, u)


def set_omega(value):
    global OMEGA
    OMEGA = value


def main():
    u = jnp.array([0.0, 4.0, 0.0, -4.0, 2.0])
    for omega in (0.5, 0.8, 0.3):
        set_omega(omega)
        for _ in range(2):
            u = smooth(u)
    return u
