"""Eager loop whose body starts by logging the state every 4 steps, then updates it.

The energy is printed to 4 decimals: jit may round a float32 sum differently in its
last place (AO101's jit of `energy` is allowed that), which 6 decimals would show."""

import jax
import jax.numpy as jnp


def energy(q):
    return jnp.sum(q**2) + 0.1 * jnp.sum(q**4)


def main():
    q = jnp.array([1.0, -0.5, 2.0])
    p = jnp.zeros(3)
    dt = 0.05
    for step in range(12):
        if step % 4 == 0:
            print(f"step {step}: E={float(energy(q) + 0.5 * jnp.sum(p**2)):.4f}")
        p = p - 0.5 * dt * jax.grad(energy)(q)
        q = q + dt * p
        p = p - 0.5 * dt * jax.grad(energy)(q)
    return q, p
