"""Gradient descent with a step size limited by Python's `max` over the gradient norm
(a trust region written the way one writes it in NumPy). Trap for AO101: `max()` on a
traced value needs its truth value and raises under jit."""

import jax
import jax.numpy as jnp


def rosenbrock(p):
    return (1.0 - p[0]) ** 2 + 100.0 * (p[1] - p[0] ** 2) ** 2


def trust_step(p, g, radius):
    gnorm = jnp.linalg.norm(g)
    return p - radius * g / max(gnorm, radius)


def main():
    p = jnp.array([-1.0, 1.5])
    for _ in range(25):
        p = trust_step(p, jax.grad(rosenbrock)(p), 0.05)
    return p, rosenbrock(p)
