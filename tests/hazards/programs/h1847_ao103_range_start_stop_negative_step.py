"""plain jax: a countdown loop `for t in range(9, 0, -2)` (a diffusion sampler runs its
timesteps backwards) calling a jitted step with `t`. Trap for AO103 (whole loop): the
scan must reproduce the indices 9, 7, 5, 3, 1 in that order."""

import jax
import jax.numpy as jnp


@jax.jit
def denoise(x, t):
    return x - 0.05 * t * x + 0.01 * t


def main():
    x = jnp.array([1.0, -1.0, 0.5])
    for t in range(9, 0, -2):
        x = denoise(x, t)
    return x
