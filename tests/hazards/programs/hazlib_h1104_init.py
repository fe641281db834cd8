"""An initializer of another module of the project (h1104): it returns one global
array, whatever it is asked for, so two layers given it share that buffer."""

import jax.numpy as jnp

TABLE = jnp.full((3, 3), 0.5)


def table_init(shape, dtype):
    return TABLE
