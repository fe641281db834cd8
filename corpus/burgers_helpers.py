"""Viscous Burgers' equation on a periodic 1D grid, Heun (RK2) time stepping.

The solver is split into small helpers; `advance` only strings them together. Kinetic
energy and the steepest gradient are recorded every step to watch the shock form and decay.
"""

import jax.numpy as jnp
import numpy as np

NX = 256
LENGTH = 2 * np.pi
NU = 0.02
DT = 2e-3
N_STEPS = 700


def centered_diff(f, dx):
    return (jnp.roll(f, -1) - jnp.roll(f, 1)) / (2 * dx)


def second_diff(f, dx):
    return (jnp.roll(f, -1) - 2 * f + jnp.roll(f, 1)) / dx**2


def convective_flux(u):
    return 0.5 * u * u


def tendency(u, dx):
    return NU * second_diff(u, dx) - centered_diff(convective_flux(u), dx)


def euler_predict(u, du, dt):
    return u + dt * du


def heun_combine(u, k1, k2, dt):
    return u + 0.5 * dt * (k1 + k2)


def advance(u, dx, dt):
    k1 = tendency(u, dx)
    guess = euler_predict(u, k1, dt)
    k2 = tendency(guess, dx)
    return heun_combine(u, k1, k2, dt)


def main():
    x = np.linspace(0.0, LENGTH, NX, endpoint=False)
    rng = np.random.default_rng(0)
    u0 = np.sin(x) + 0.5 * np.sin(2 * x + 1.0) + 0.01 * rng.normal(size=NX)
    u = jnp.asarray(u0, dtype=jnp.float32)
    dx = LENGTH / NX

    energy, steepness = [], []
    for _ in range(N_STEPS):
        u = advance(u, dx, DT)
        energy.append(0.5 * jnp.sum(u**2) * dx)
        steepness.append(jnp.max(jnp.abs(jnp.roll(u, -1) - u)) / dx)

    return {"u": u, "energy": jnp.stack(energy), "max_gradient": jnp.stack(steepness)}


if __name__ == "__main__":
    print(main())
