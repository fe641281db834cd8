"""plain jax: a jitted step whose loop index is a static argument
(`static_argnums=1`) and drives a Python branch (`if i % 3 == 0`, a restart every third
step); the loop is `for i in range(6): w = step(w, i)`. Trap for AO103 (whole loop): a
scan would trace `i`, which the branch cannot read (or, if it were held static, one
branch for every step)."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def step(w, i):
    if i % 3 == 0:
        return w * 0.5
    return w + 1.0


def main():
    w = jnp.array([4.0, 8.0])
    for i in range(6):
        w = step(w, i)
    return w
