"""A helper records whether preallocation was configured before the program sets it
(read with `os.getenv` in a module-level call); the record is returned."""

import os

import jax.numpy as jnp


def preallocation_state():
    return os.getenv("XLA_PYTHON_CLIENT_PREALLOCATE", "default")


BEFORE = preallocation_state()
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"


def main():
    return jnp.ones(2), BEFORE
