"""An eager loop whose nested loss closes over `scale = [1.0]`, a one-element list the
loop shrinks in place (`scale[0] *= 0.5`) after the device work. Trap for AO103: a
compiled step reads `scale[0]` once, at trace time."""

import jax
import jax.numpy as jnp


def fit(target, steps):
    scale = [1.0]

    def loss(w):
        return scale[0] * jnp.sum((w - target) ** 2)

    w = jnp.zeros_like(target)
    for _ in range(steps):
        g = jax.grad(loss)(w)
        w = w - 0.2 * g
        scale[0] *= 0.5
    return w


def main():
    return fit(jnp.array([1.0, 3.0]), 5)
