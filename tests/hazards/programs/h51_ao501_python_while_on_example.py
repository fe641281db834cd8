"""Per-sample Newton iteration for a square root that stops when the sample converges
(a Python `while` on the residual), then stacked. Trap for AO501: under vmap the
residual is a batched tracer and the Python `while` cannot test it."""

import jax.numpy as jnp


def newton_sqrt(a):
    x = jnp.maximum(a, 1.0)
    while jnp.abs(x * x - a) > 1e-4:
        x = 0.5 * (x + a / x)
    return x


def main():
    values = jnp.array([2.0, 9.0, 0.5, 30.0, 1.0])
    roots = jnp.stack([newton_sqrt(v) for v in values])
    return roots
