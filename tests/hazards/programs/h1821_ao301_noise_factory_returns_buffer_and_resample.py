"""plain jax + NumPy: `make_noise(n, seed)` returns `(resample, noise)`: a closure that
redraws Gaussian noise into a preallocated NumPy buffer with a seeded generator, and the
buffer itself; the loop calls `resample()` and passes `noise` straight into a jitted
perturbed step. Trap for AO301: the buffer is refilled in place by the closure the loop
calls; transferring it once before the loop reuses the first draw every step."""

import jax
import jax.numpy as jnp
import numpy as np


def make_noise(n, seed):
    rng = np.random.default_rng(seed)
    noise = np.zeros(n, dtype=np.float64)

    def resample():
        noise[:] = rng.standard_normal(n)

    return resample, noise


@jax.jit
def perturbed_step(w, eps):
    return w - 0.1 * (w - 1.0) + 0.01 * eps


def main():
    resample, noise = make_noise(3, 0)
    w = jnp.zeros(3)
    for _ in range(5):
        resample()
        w = perturbed_step(w, noise)
    return w
