"""Script that asks JAX to explain its cache misses, after `import jax`, where the
setting is ignored, and logs to stdout. Trap for AO701: moved above the import, the
setting takes effect and every retrace is explained in the output."""

import logging
import os
import sys

import jax
import jax.numpy as jnp

os.environ.update(JAX_EXPLAIN_CACHE_MISSES="true")
logging.basicConfig(stream=sys.stdout, level=logging.WARNING, format="%(levelname)s %(message)s")


@jax.jit
def f(x):
    return x * 2.0 + 1.0


def main():
    print("start")
    ys = [f(jnp.ones(n)) for n in (2, 3)]
    print("done")
    return ys
