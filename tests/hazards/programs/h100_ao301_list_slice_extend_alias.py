"""Running statistics: a helper appends to a log by slice assignment on a local alias
of its parameter (`book = log; book[len(book):] = [r]`), handed the list inside a
tuple (`state[0]`). Trap for AO301: the list the loop transfers grows in place, through
an element of a tuple, a parameter, an alias inside the helper and a slice."""

import jax.numpy as jnp


def record(log, r):
    book = log
    book[len(book) :] = [r]


def main():
    values = [1.0]
    state = (values, "running")
    total = jnp.zeros(())
    for t in range(8):
        record(state[0], 0.25 * t)
        total = total + jnp.sum(jnp.asarray(values))
    return total
