"""A plain object (no pytree) holds the parameters, `holder.w = params`; an
`eqx.filter_jit` probe, run once before training, stores `holder.w` on a second plain
object, `box.kept = holder.w`. Trap for AO201: `eqx.filter_jit` passes every non-array
leaf as the caller's very object, so the body reads `holder.w`, a real buffer, not a
tracer, and `box` ends up holding the parameters' buffer: donating `params` to `step`
deletes the array `box.kept` is, read after every step."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Holder:
    pass


class Box:
    def __init__(self):
        self.kept = None


@eqx.filter_jit
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
