"""A "weight probe": the model is evaluated on its own weight rows, the probe batch made
by slicing the weights with `w[:n]` where `n` is all the rows. A slice covering the
whole array is the array itself in JAX. Trap for AO201: the step takes `w` and the
probe, both one buffer; donating `w` deletes the probe (or is refused in the call)."""

import jax
import jax.numpy as jnp

ROWS = 4


@jax.jit
def step(w, probe):
    def loss(w):
        return jnp.mean((probe @ w.T - jnp.eye(ROWS)) ** 2)

    value, g = jax.value_and_grad(loss)(w)
    return w - 0.2 * g, value


def main():
    w = jnp.linspace(0.1, 1.6, 4 * ROWS).reshape(ROWS, 4)
    probe = w[:ROWS]
    for i in range(5):
        w, value = step(w, probe)
        print(i, round(float(value), 5))
    return w, probe
