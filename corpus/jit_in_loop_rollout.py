"""Ensemble rollout of damped, driven pendulums with a fixed-step RK4 integrator.

Each ensemble member gets its own drive amplitude; we log the mean energy as we go.
"""

import jax
import jax.numpy as jnp
import numpy as np

GAMMA = 0.5  # damping
OMEGA_D = 2.0 / 3.0  # drive frequency
DT = 0.02
N_STEPS = 1000


def dynamics(state, t, drive):
    theta, omega = state[:, 0], state[:, 1]
    dtheta = omega
    domega = -GAMMA * omega - jnp.sin(theta) + drive * jnp.cos(OMEGA_D * t)
    return jnp.stack([dtheta, domega], axis=1)


def rk4_step(state, t, drive):
    k1 = dynamics(state, t, drive)
    k2 = dynamics(state + 0.5 * DT * k1, t + 0.5 * DT, drive)
    k3 = dynamics(state + 0.5 * DT * k2, t + 0.5 * DT, drive)
    k4 = dynamics(state + DT * k3, t + DT, drive)
    return state + DT / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


def energy(state):
    theta, omega = state[:, 0], state[:, 1]
    return 0.5 * omega**2 + (1.0 - jnp.cos(theta))


def main():
    rng = np.random.default_rng(0)
    n_members = 256
    drive = jnp.asarray(np.linspace(0.2, 0.9, n_members), dtype=jnp.float32)
    state = jnp.asarray(rng.uniform(-0.5, 0.5, size=(n_members, 2)), dtype=jnp.float32)

    mean_energy = []
    t = 0.0
    for i in range(N_STEPS):
        step = jax.jit(rk4_step)
        state = step(state, t, drive)
        t += DT
        if i % 20 == 0:
            mean_energy.append(energy(state).mean())
    return {"state": state, "mean_energy": jnp.stack(mean_energy)}


if __name__ == "__main__":
    print(main())
