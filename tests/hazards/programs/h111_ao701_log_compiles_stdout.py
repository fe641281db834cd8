"""Script that logs to stdout and asks JAX to log compilations, after `import jax`,
where the setting is ignored. Trap for AO701: moving JAX_LOG_COMPILES above the import
makes it take effect, and compile logs appear in the output (2 lines become 10)."""

import logging
import os
import sys

import jax
import jax.numpy as jnp

os.environ["JAX_LOG_COMPILES"] = "1"
logging.basicConfig(stream=sys.stdout, level=logging.WARNING, format="%(levelname)s %(message)s")


@jax.jit
def f(x):
    return x * 2.0 + 1.0


def main():
    print("start")
    y = f(jnp.arange(3.0))
    print("done")
    return y
