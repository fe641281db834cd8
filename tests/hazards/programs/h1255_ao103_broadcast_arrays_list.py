"""Inputs aligned with `jnp.broadcast_arrays(a, b, c)` (a list of arrays) and an eager
accumulation loop over `range(3)` indexing it. Trap for AO103: the list indexed by a
traced loop index in a compiled step fails."""

import jax.numpy as jnp


def main():
    a = jnp.array([1.0, 2.0, 3.0])
    b = jnp.array(0.5)
    c = jnp.array([[1.0], [2.0]])
    parts = jnp.broadcast_arrays(a, b, c)
    acc = jnp.zeros((2, 3))
    for k in range(3):
        acc = acc * 0.5 + parts[k]
        acc = jnp.tanh(acc)
    return acc
