"""A robust loss step `robust_step(w, r)` choosing between two branches with
`jax.lax.cond`; the Huber branch reads the global `DELTA`, which the outer loop shrinks
with `set_delta`. Trap for AO101: jitting `robust_step` keeps the first `DELTA`, read
only inside a function handed to `lax.cond`."""

import jax
import jax.numpy as jnp

DELTA = 2.0


def huber_grad(r):
    return jnp.clip(r, -DELTA, DELTA)


def square_grad(r):
    return r


def robust_step(w, r):
    g = jax.lax.cond(jnp.max(jnp.abs(r)) > 1.0, huber_grad, square_grad, r)
    return w - 0.1 * g


def set_delta(value):
    global DELTA
    DELTA = value


def main():
    w = jnp.zeros(3)
    r = jnp.array([3.0, -4.0, 0.5])
    for delta in (2.0, 1.0, 0.5):
        set_delta(delta)
        for _ in range(2):
            w = robust_step(w, r)
    return w
