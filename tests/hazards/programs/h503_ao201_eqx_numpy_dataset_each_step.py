"""Full-batch training on a NumPy dataset passed to every step, normalised in place
between epochs. Control for AO201 (for h502): `eqx.filter_jit(donate="all")` donates
the device copy jit makes of a NumPy argument, so `xs` keeps its values and the later
steps and the in-place update read them; a donation that reached the host array would
change every result."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


@eqx.filter_jit
def make_step(w, xs, ys):
    grad = jax.grad(lambda v: jnp.mean((xs @ v - ys) ** 2))(w)
    return w - 0.1 * grad


def main():
    xs = np.arange(12.0, dtype=np.float32).reshape(4, 3) / 12.0
    ys = np.array([1.0, 0.0, 1.0, 0.0], dtype=np.float32)
    w = jnp.zeros(3)
    for _ in range(5):
        w = make_step(w, xs, ys)
        xs *= 0.9
    return w, xs.sum(), ys
