"""Per-example encoding that logs each example twice: through a helper, then itself.
Trap for AO501: under `jax.vmap` each print statement runs for every example before
the next statement does, so the lines come out grouped by statement instead of
example by example."""

import jax
import jax.numpy as jnp


def trace(tag, h):
    jax.debug.print(tag + " {v:.3f}", v=jnp.sum(h))
    return h


def encode(x):
    h = trace("in", jnp.tanh(x))
    jax.debug.print("out {v:.3f}", v=jnp.sum(h * 2.0))
    return jnp.sum(h * 2.0)


def main():
    xs = jnp.arange(9.0).reshape(3, 3) / 10.0
    return jnp.stack([encode(x) for x in xs])
