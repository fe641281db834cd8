"""Two nnx modules holding only a `Param` each; an `nnx.jit` probe, run once, stores
one's variable on the other, `box.p = holder.p`. Trap for AO201: nnx writes the graph a
body changed back into its module arguments, so after the call `box.p` is `holder`'s
very variable; the parameters set into it afterwards (`holder.p.set_value(params)`) are
then what `box.p` reads, and donating `params` to `step` deletes them. Classes holding
only variables do not make a call of `nnx.jit` link nothing: its body moves them."""

import jax
import jax.numpy as jnp
from flax import nnx


class Layer(nnx.Module):
    def __init__(self, w):
        self.p = nnx.Param(w)


@nnx.jit
def probe(holder, box):
    box.p = holder.p


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    holder = Layer(jnp.zeros(3))
    box = Layer(jnp.zeros(3))
    probe(holder, box)
    params = jnp.arange(3.0)
    holder.p.set_value(params)
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(box.p[...].sum()))
    return params, seen
