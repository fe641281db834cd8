"""A Newton step `newton(w)` using `jax.hessian(energy)` and `jax.grad(energy)`, where
`energy` reads the global stiffness `K`, raised by `stiffen()` at each load step. Trap
for AO101: jitting `newton` keeps the first `K`."""

import jax
import jax.numpy as jnp

K = 1.0


def energy(w):
    return 0.5 * K * jnp.sum(w**2) + jnp.sum(jnp.cosh(w - 1.0))


def newton(w):
    h = jax.hessian(energy)(w)
    return w - jnp.linalg.solve(h, jax.grad(energy)(w))


def stiffen():
    global K
    K = K * 2.0


def main():
    w = jnp.array([0.2, -0.3])
    for _ in range(3):
        for _ in range(2):
            w = newton(w)
        stiffen()
    return w
