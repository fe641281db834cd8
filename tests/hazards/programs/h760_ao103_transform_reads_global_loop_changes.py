"""A descent loop calling `grad_fn = jax.grad(energy)`, a module-level transform of a
function that reads the global `STIFFNESS`, which the module-level loop stiffens after
every step. Trap for AO103: the step calls `grad_fn`, whose function autoopt follows;
compiled, the step would freeze `STIFFNESS` at its first value while the eager loop
reads each new one."""

import jax
import jax.numpy as jnp

STIFFNESS = 1.0


def energy(x):
    return 0.5 * STIFFNESS * jnp.sum(x**2) + jnp.sum(jnp.cos(x))


grad_fn = jax.grad(energy)
x = jnp.linspace(-1.0, 1.0, 6, dtype=jnp.float32)
for step in range(8):
    g = grad_fn(x)
    x = x - 0.1 * g
    x = x * 0.99
    print(step)
    STIFFNESS = STIFFNESS * 1.5


def main():
    return x, STIFFNESS
