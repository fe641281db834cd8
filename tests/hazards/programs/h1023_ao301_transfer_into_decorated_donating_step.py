"""A profiling decorator `@timed` (a `functools.wraps` wrapper that counts calls) sits
on top of `@functools.partial(jax.jit, donate_argnums=(0, 1))`. The loop passes
`jnp.asarray(mask_np)` to the decorated step. Trap for AO301: the wrapper hides the
donation; hoisting the transfer lets the first call delete the mask every later call
receives."""

import functools

import jax
import jax.numpy as jnp
import numpy as np

CALLS = {"apply_mask": 0}


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        CALLS[fn.__name__] += 1
        return fn(*args)

    return wrapper


@timed
@functools.partial(jax.jit, donate_argnums=(0, 1))
def apply_mask(w, mask):
    return w * mask + 0.1, mask


def main():
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    w = jnp.ones(4)
    for _ in range(5):
        w, _ = apply_mask(w, jnp.asarray(mask_np))
    return w, CALLS["apply_mask"]
