"""Evaluation script that limits the GPU memory fraction after importing its config.
`hazlib_envcfg` reads XLA_PYTHON_CLIENT_MEM_FRACTION when it is imported. Trap for
AO701: moving the setting above `import jax` also moves it above that import, which
then sees it and picks another batch size."""

import os

import jax
import jax.numpy as jnp

# isort: split
import hazlib_envcfg  # after jax: the import the setting must not jump over

os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "0.25"


def main():
    x = jnp.arange(float(hazlib_envcfg.BATCH))
    return jax.numpy.sum(x), hazlib_envcfg.BATCH
