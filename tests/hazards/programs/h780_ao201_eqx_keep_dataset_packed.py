"""Full-batch training whose step reads the whole dataset every call, and the dataset is
summed after the loop. Trap for AO201's keep-first form: the dataset (`xs`, `ys`) must be
kept from donation (packed, passed first) and only the weights and the momentum donated;
`donate="all"` would delete the dataset on the first call."""

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def step(w, mom, xs, ys):
    grad = jax.grad(lambda v: jnp.mean((xs @ v - ys) ** 2))(w)
    mom = 0.9 * mom + grad
    return w - 0.1 * mom, mom


def main():
    xs = jnp.arange(12.0).reshape(4, 3) / 12.0
    ys = jnp.array([1.0, 0.0, 1.0, 0.0])
    w, mom = jnp.zeros(3), jnp.zeros(3)
    for _ in range(5):
        w, mom = step(w, mom, xs, ys)
    return w, mom, xs.sum(), ys.sum()
