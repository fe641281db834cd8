"""The `flax.struct` spelling of h1261: a probe under plain `jax.jit` is given two
`flax.struct.dataclass` records, each with a plain object in a `pytree_node=False` field,
and stores `holder.w`, the parameters' buffer, on the other record's `box`. Trap for
AO201: such a field is the pytree's aux data, which `jax.jit` hands the body as the
caller's very object, so `box` holds the buffer donating `params` to `step` deletes, and
`box.kept` is read after every step."""

import jax
import jax.numpy as jnp
from flax import struct


class Holder:
    pass


class Box:
    def __init__(self):
        self.kept = None


@struct.dataclass
class Record:
    x: jax.Array
    obj: object = struct.field(pytree_node=False)


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
    probe(Record(jnp.ones(3), holder), Record(jnp.ones(3), box))
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(box.kept.sum()))
    return params, seen
