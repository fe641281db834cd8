"""Damped oscillator integrated with a config dict holding numbers and a string (the
name of the integrator, used for logging). Trap for AO101: the dict becomes a pytree
of traced leaves and the string leaf is not a JAX type."""

import jax.numpy as jnp

CONFIG = {"dt": 0.05, "k": 4.0, "damping": 0.3, "integrator": "symplectic-euler"}


def integrate(state, cfg):
    x, v = state
    a = -cfg["k"] * x - cfg.get("damping", 0.0) * v
    v = v + cfg["dt"] * a
    x = x + cfg["dt"] * v
    return jnp.asarray(x), jnp.asarray(v)


def main():
    state = (jnp.array([1.0, 0.5]), jnp.zeros(2))
    energies = []
    for _ in range(50):
        state = integrate(state, CONFIG)
        energies.append(0.5 * state[1] ** 2 + 0.5 * CONFIG["k"] * state[0] ** 2)
    return state, jnp.stack(energies)
