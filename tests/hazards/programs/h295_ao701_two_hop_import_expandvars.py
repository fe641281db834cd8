"""Program importing its settings module after jax; the settings module imports a
paths module that expands `$XLA_PYTHON_CLIENT_MEM_FRACTION` at import. The program
sets the fraction after these imports and prints the banner."""

import os

import jax.numpy as jnp
from hazlib_h295_settings import BANNER

os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".4"


def main():
    print(BANNER)
    return jnp.ones(2) * 2.0
