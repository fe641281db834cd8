"""Langevin dynamics whose noise comes from `np.random.default_rng`, two helper calls
below the step (`langevin_step` -> `thermal_kick` -> `gaussian`). Trap for AO101:
jit would draw the noise once, at trace time."""

import jax.numpy as jnp
import numpy as np

RNG = np.random.default_rng(0)


def gaussian(shape):
    return RNG.standard_normal(shape).astype(np.float32)


def thermal_kick(x, temperature):
    return jnp.sqrt(2.0 * temperature) * jnp.asarray(gaussian(x.shape))


def langevin_step(x, dt):
    force = -4.0 * x**3 + 4.0 * x  # double well
    return x + dt * force + jnp.sqrt(dt) * thermal_kick(x, 0.3)


def main():
    global RNG
    RNG = np.random.default_rng(0)
    x = jnp.zeros(8)
    traj = []
    for _ in range(25):
        x = langevin_step(x, 0.01)
        traj.append(x)
    return jnp.stack(traj)
