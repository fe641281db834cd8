"""A normalizer converts the max to a Python float inside `try`, falling back to 1.0 on
any exception: eagerly the conversion succeeds.
"""

import jax.numpy as jnp


def normalize(x):
    try:
        scale = float(jnp.max(jnp.abs(x)))
    except Exception:
        scale = 1.0
    return x / scale


def main():
    outs = []
    for k in range(1, 4):
        outs.append(normalize(jnp.arange(4.0) * k - 1.0))
    return jnp.stack(outs)
