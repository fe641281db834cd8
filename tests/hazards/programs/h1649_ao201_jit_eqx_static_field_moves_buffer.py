"""The `equinox` spelling of h1648: a probe under plain `jax.jit` (not
`eqx.filter_jit`) is given two `eqx.Module`s, each holding a plain object in a field
marked `eqx.field(static=True)`, and stores `holder.w`, the parameters' buffer, on the
other module's `box`. Trap for AO201: a static field is the module's aux data, which
`jax.jit` hands the body as the caller's very object, so `box` holds the buffer donating
`params` to `step` deletes, and `box.kept` is read after every step."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Holder:
    pass


class Box:
    def __init__(self):
        self.kept = None


class Carrier(eqx.Module):
    x: jax.Array
    obj: object = eqx.field(static=True)


@jax.jit
def probe(source, target):
    target.obj.kept = source.obj.w
    return source.x + target.x


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    params = jnp.arange(3.0)
    holder = Holder()
    holder.w = params
    box = Box()
    probe(Carrier(jnp.ones(3), holder), Carrier(jnp.ones(3), box))
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(box.kept.sum()))
    return params, seen
