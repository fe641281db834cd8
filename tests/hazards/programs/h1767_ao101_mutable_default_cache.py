"""A helper memoizes its last input in a mutable default argument and returns the
difference to it.
"""

import jax.numpy as jnp


def delta(x, _last=[]):  # noqa: B006
    prev = _last[0] if _last else jnp.zeros_like(x)
    _last[:] = [x]
    return x - prev


def main():
    out = []
    for t in range(4):
        out.append(delta(jnp.arange(3.0) * t * t))
    return jnp.stack(out)
