"""The nnx spelling of h1260: `Holder`, an nnx module, keeps the parameters in a plain
object (`self.obj = Plain(w)`, no Variable, no module); an `nnx.jit` probe, run once
before training, stores `holder.obj.w` on `box.kept`, another plain object. Trap for
AO201: nnx keeps an attribute that is neither a Variable nor a module in the graphdef,
and the body sees the caller's very object, so `holder.obj.w` is the parameters' real
buffer, not a tracer, and `box` ends up holding it: donating `params` to `step` deletes
the array `box.kept.w` is, read after every step."""

import jax
import jax.numpy as jnp
from flax import nnx


class Plain:
    def __init__(self, w):
        self.w = w


class Holder(nnx.Module):
    def __init__(self, w):
        self.obj = Plain(w)


class Box(nnx.Module):
    def __init__(self):
        self.kept = Plain(jnp.zeros(3))


@nnx.jit
def probe(holder, box):
    box.kept.w = holder.obj.w


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    params = jnp.arange(3.0)
    holder = Holder(params)
    box = Box()
    probe(holder, box)
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(box.kept.w.sum()))
    return params, seen
