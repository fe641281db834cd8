"""Wave equation step with the boundary condition chosen by a string (`"wrap"` or
`"edge"`), handed to `jnp.pad`. Trap for AO101: a string argument is not a JAX type;
it must be static."""

import jax.numpy as jnp


def wave_step(u, u_prev, c, boundary):
    padded = jnp.pad(u, 1, mode=boundary)
    lap = padded[2:] + padded[:-2] - 2.0 * u
    return 2.0 * u - u_prev + c**2 * lap, u


def main():
    x = jnp.linspace(-1.0, 1.0, 32)
    u = jnp.exp(-20.0 * x**2)
    u_prev = u
    for _ in range(40):
        u, u_prev = wave_step(u, u_prev, 0.5, "edge")
    return u
