"""A particle update that maps a per-particle kick over the particles with
`jax.lax.map(kick, xs)`; `kick` reads the module global `FIELD`, a field strength
switched by the outer loop (a pulse schedule). Trap for AO101: jitted, `lax.map`'s body
is traced once with the first `FIELD`."""

import jax
import jax.numpy as jnp

FIELD = 1.0


def kick(p):
    return p + 0.1 * FIELD * jnp.array([1.0, -1.0]) - 0.05 * p


def advance(xs):
    return jax.lax.map(kick, xs)


def main():
    global FIELD
    xs = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    for t in range(10):
        xs = advance(xs)
        FIELD = -FIELD if t % 3 == 2 else FIELD
    return xs
