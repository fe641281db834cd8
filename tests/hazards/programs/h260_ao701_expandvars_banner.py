"""Start-up banner expanded with `os.path.expandvars`, between `import jax` and the
allocator setting; the banner shows what the allocator setting was at that point."""

import os

import jax
import jax.numpy as jnp

print(os.path.expandvars("memory fraction: ${XLA_PYTHON_CLIENT_MEM_FRACTION}"))
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "0.5"


def main():
    return jnp.arange(3.0) * 2.0, jax.default_backend()
