"""The registered-class spelling of h1648: a class registered with
`jax.tree_util.register_pytree_node` keeps a plain object in its aux data; a probe under
plain `jax.jit`, given one such pytree holding `holder` and `box`, stores `holder.w`, the
parameters' buffer, on `box`. Trap for AO201: the aux data reaches the body as the
caller's very objects, so `box` holds the buffer donating `params` to `step` deletes,
and `box.kept` is read after every step."""

import jax
import jax.numpy as jnp


class Holder:
    pass


class Box:
    def __init__(self):
        self.kept = None


class Pair:
    def __init__(self, x, objects):
        self.x = x
        self.objects = objects


jax.tree_util.register_pytree_node(
    Pair, lambda p: ((p.x,), p.objects), lambda objects, xs: Pair(xs[0], objects)
)


@jax.jit
def probe(pair):
    source, target = pair.objects
    target.kept = source.w
    return pair.x + 1.0


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    params = jnp.arange(3.0)
    holder = Holder()
    holder.w = params
    box = Box()
    probe(Pair(jnp.ones(3), (holder, box)))
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(box.kept.sum()))
    return params, seen
