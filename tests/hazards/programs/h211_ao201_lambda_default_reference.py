"""Damped oscillator fitted by gradient steps; the reference model is a lambda that
binds the initial coefficients as a default argument, evaluated at the end."""

import jax
import jax.numpy as jnp


@jax.jit
def fit_step(coef, t, target):
    def loss(c):
        return jnp.mean((c[0] * jnp.exp(-c[1] * t) - target) ** 2)

    return coef - 0.1 * jax.grad(loss)(coef)


def main():
    t = jnp.linspace(0.0, 2.0, 16)
    target = 1.5 * jnp.exp(-0.7 * t)
    coef = jnp.array([1.0, 1.0])
    reference = lambda ts, c=coef: c[0] * jnp.exp(-c[1] * ts)  # noqa: E731
    for _ in range(25):
        coef = fit_step(coef, t, target)
    return reference(t), coef
