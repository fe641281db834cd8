"""Kuramoto oscillators on a ring with nearest-neighbour coupling (explicit Euler).

The phase field is recorded into a history buffer every few steps for a space-time plot.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_OSC = 256
COUPLING = 1.5
DT = 0.05
N_STEPS = 160
RECORD_EVERY = 4


@jax.jit
def kuramoto_step(theta, omega):
    left = jnp.roll(theta, 1)
    right = jnp.roll(theta, -1)
    dtheta = omega + COUPLING * (jnp.sin(left - theta) + jnp.sin(right - theta))
    return theta + DT * dtheta


def order_parameter(theta):
    return jnp.abs(jnp.mean(jnp.exp(1j * theta)))


def main():
    rng = np.random.default_rng(0)
    omega = jnp.asarray(rng.normal(0.0, 0.5, size=N_OSC), dtype=jnp.float32)
    theta = jnp.asarray(rng.uniform(0, 2 * np.pi, size=N_OSC), dtype=jnp.float32)

    hist = theta[None, :]
    for step in range(1, N_STEPS + 1):
        theta = kuramoto_step(theta, omega)
        if step % RECORD_EVERY == 0:
            hist = jnp.concatenate([hist, theta[None, :]], axis=0)

    return {"history": hist, "theta": theta, "sync": order_parameter(theta)}


if __name__ == "__main__":
    print(main())
