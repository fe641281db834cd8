"""plain jax + NumPy: a simulation's `make_forcing(n)` returns `(update, force)`: a
closure that writes the next forcing term with `np.copyto(force, ...)`, and the NumPy
buffer; the loop calls `update(t)` then passes `jax.device_put(force)` to a jitted
integrator. Trap for AO301: `np.copyto` refills the buffer through the closure; a hoisted
transfer keeps the forcing of step 0."""

import jax
import jax.numpy as jnp
import numpy as np


def make_forcing(n):
    force = np.zeros(n, dtype=np.float64)
    phase = np.linspace(0.0, 1.0, n)

    def update(t):
        np.copyto(force, np.sin(phase + 0.5 * t))

    return update, force


@jax.jit
def integrate(x, f):
    return x + 0.1 * (f - x)


def main():
    update, force = make_forcing(4)
    x = jnp.zeros(4)
    for t in range(6):
        update(t)
        x = integrate(x, jax.device_put(force))
    return x
