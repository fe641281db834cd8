"""A module function rebound to a wrapper that keeps its argument (`loss = keeper(loss)`,
issue 26). Trap for AO201 (`donate="all"`): the call runs the wrapper, not the `def`
read as pure; donating `model` deletes the weights the wrapper kept."""

import equinox as eqx
import jax
import jax.numpy as jnp

KEPT = []


class Linear(eqx.Module):
    w: jax.Array


def keeper(fn):
    def wrapped(model, x):
        KEPT.append(model.w)
        return fn(model, x)

    return wrapped


def loss(model, x):
    return jnp.sum(model.w * x)


loss = keeper(loss)


@eqx.filter_jit
def step(model):
    return eqx.tree_at(lambda m: m.w, model, model.w - 0.1)


def main():
    model = Linear(jnp.ones(3))
    x = jnp.ones(3)
    for _ in range(3):
        print(loss(model, x))
        model = step(model)
    return model.w, [k.sum() for k in KEPT]
