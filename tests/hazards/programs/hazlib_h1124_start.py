"""The starting parameters h1124 imports under the name it later rebinds to its state."""

import jax.numpy as jnp

params = {"w": jnp.linspace(0.0, 1.0, 3)}
