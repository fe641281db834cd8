"""The `jax.jit` spelling of h1260: a probe jitted with both plain objects static
(`static_argnums=(0, 1)`, hashed by identity) stores `holder.w`, the parameters' buffer,
on `box`. Trap for AO201: a static argument is the caller's very object inside the
body, so `box` holds the buffer donating `params` to `step` deletes, and `box.kept` is
read after every step."""

import functools

import jax
import jax.numpy as jnp


class Holder:
    pass


class Box:
    def __init__(self):
        self.kept = None


@functools.partial(jax.jit, static_argnums=(0, 1))
def probe(holder, box, x):
    box.kept = holder.w
    return x + 1.0


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    params = jnp.arange(3.0)
    holder = Holder()
    holder.w = params
    box = Box()
    probe(holder, box, 1.0)
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(box.kept.sum()))
    return params, seen
