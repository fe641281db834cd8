"""Two-phase solver: the refinement phase switches the project to double precision."""

import hazlib_modes
import jax.numpy as jnp
import numpy as np

RHS = np.linspace(0.0, 1.0, 4) + 1e-9


def main():
    x = jnp.zeros(4)
    dtypes = []
    for it in range(6):
        if it == 3:
            hazlib_modes.switch_to_double()
        b = jnp.asarray(RHS)
        x = 0.5 * x + b
        dtypes.append(str(b.dtype))
    jax_x = x
    hazlib_modes.jax.config.update("jax_enable_x64", False)
    return np.asarray(jax_x), dtypes
