"""Script that sizes its batch with a helper of another module, then limits the GPU
memory fraction. The helper reads XLA_PYTHON_CLIENT_MEM_FRACTION when it is called,
not when it is imported. Trap for AO701: moving the setting above `import jax` moves it
above the call, which then sees it and picks another batch size."""

import os

import jax
import jax.numpy as jnp

# isort: split
import hazlib_budget  # after jax: the import the setting must not jump over

BATCH = hazlib_budget.batch_size()
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "0.25"


def main():
    x = jnp.arange(float(BATCH))
    return jax.numpy.sum(x), BATCH
