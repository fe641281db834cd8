"""Projected gradient descent onto the non-negative orthant, written with a
boolean-mask update `x.at[x < 0].set(0.0)` after each step. Trap for AO401: the index
is a mask; in a jitted helper the mask is a tracer and the update raises (or, with a
fixed shape, would write the wrong cells)."""

import jax
import jax.numpy as jnp


def grad_fn(x, target):
    return 2.0 * (x - target)


def main():
    target = jnp.array([1.0, -2.0, 0.5, -0.1, 3.0])
    x = jnp.zeros(5)
    for _ in range(15):
        x = x - 0.2 * grad_fn(x, target)
        x = x.at[x < 0.0].set(0.0)
    return x, jax.device_get(x).tolist()
