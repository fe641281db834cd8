"""Full-batch training that passes the whole dataset to every step. Trap for AO201:
`eqx.filter_jit(donate="all")` would delete `xs` and `ys` on the first call, and the
second step reads them."""

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def make_step(w, xs, ys):
    grad = jax.grad(lambda v: jnp.mean((xs @ v - ys) ** 2))(w)
    return w - 0.1 * grad


def main():
    xs = jnp.arange(12.0).reshape(4, 3) / 12.0
    ys = jnp.array([1.0, 0.0, 1.0, 0.0])
    w = jnp.zeros(3)
    for _ in range(5):
        w = make_step(w, xs, ys)
    return w, xs.sum()
