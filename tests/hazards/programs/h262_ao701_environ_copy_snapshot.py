"""Reproducibility log: a copy of the environment is taken right after the imports
(`os.environ.copy()`), then the allocator is configured; the log reports the
allocator as found in the snapshot."""

import os

import jax.numpy as jnp

SNAPSHOT = os.environ.copy()
os.environ["XLA_PYTHON_CLIENT_ALLOCATOR"] = "platform"


def main():
    return jnp.zeros(2), SNAPSHOT.get("XLA_PYTHON_CLIENT_ALLOCATOR", "unset")
