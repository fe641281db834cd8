"""A straight-through estimator written with `jax.custom_jvp`: the forward rounds,
the tangent rule passes the gradient scaled by the module global `STE_SLOPE`, annealed
by the loop. Trap for AO101/AO103: jitted, the jvp rule reads `STE_SLOPE` once."""

import jax
import jax.numpy as jnp

STE_SLOPE = 1.0


@jax.custom_jvp
def quantize(x):
    return jnp.round(x * 4.0) / 4.0


@quantize.defjvp
def _quantize_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return quantize(x), STE_SLOPE * t


def loss(w, x, y):
    return jnp.mean((quantize(x @ w) - y) ** 2)


def update(w, x, y):
    return w - 0.1 * jax.grad(loss)(w, x, y)


def main():
    global STE_SLOPE
    x = jnp.array([[1.0, 0.3], [0.2, 1.0], [0.7, 0.7]])
    y = jnp.array([0.9, -0.4, 0.3])
    w = jnp.array([0.1, 0.1])
    for i in range(10):  # noqa: B007
        w = update(w, x, y)
        STE_SLOPE = 0.8 * STE_SLOPE
    return w
