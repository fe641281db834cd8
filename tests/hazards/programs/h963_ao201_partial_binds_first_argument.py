"""A jitted `_train_step(scale, params, x)` used through `step =
functools.partial(_train_step, scale)`, so the call `params = step(params, x)` passes
`params` second. Trap for AO201: the call site's first position is `scale`'s, not
`params`'; donating by call-site position would donate `scale`, reused every step."""

import functools

import jax
import jax.numpy as jnp


def _impl(scale, params, x):
    return params - scale * (params - x)


_train_step = jax.jit(_impl)


def main():
    scale = jnp.array([0.5, 0.25])
    step = functools.partial(_train_step, scale)
    params = jnp.array([2.0, 2.0])
    for k in range(4):
        params = step(params, jnp.full(2, float(k)))
    return params, scale
