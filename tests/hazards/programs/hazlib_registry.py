"""Named snapshots of arrays, kept for a later comparison (imported by h106)."""

import jax
import jax.numpy as jnp

_SEEN: dict[str, jax.Array] = {}


def checkpoint(name: str, value: jax.Array) -> jax.Array:
    """Keep `value` under `name`; `jnp.asarray` of a JAX array is that same array."""
    _SEEN[name] = value
    return jnp.asarray(value)


def restore(name: str) -> jax.Array:
    return _SEEN[name]
