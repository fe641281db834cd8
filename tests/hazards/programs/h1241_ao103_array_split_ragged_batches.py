"""A device dataset cut into batches with `jnp.array_split(xs, 3)`, which returns a
Python list of arrays of unequal length (4, 3, 3), and an eager loop over
`range(len(batches))` that updates the weights with the glue inline. Trap for AO103:
`batches` is a list, not an array; a compiled step or scan indexing it with a traced
index fails."""

import jax.numpy as jnp


def main():
    xs = jnp.arange(20.0).reshape(10, 2) / 10.0
    batches = jnp.array_split(xs, 3)
    w = jnp.zeros(2)
    for i in range(len(batches)):
        xb = batches[i]
        g = jnp.mean(xb, axis=0) - w
        w = w + 0.5 * g
    return w
