"""equinox: control (for h1640). An `eqx.filter_jit` function returns the model's weight
as it is (`jnp.asarray` of an array is that array) and the caller keeps it in a list
read after training: the jit returns every array leaf in a new buffer, so donating
`model` keeps the results."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Linear(eqx.Module):
    weight: jax.Array


@eqx.filter_jit
def step(model, x):
    return eqx.tree_at(lambda m: m.weight, model, model.weight - 0.1 * x)


@eqx.filter_jit
def weight_of(model):
    return jnp.asarray(model.weight)


def main():
    model = Linear(jnp.arange(4.0))
    x = jnp.ones(4)
    seen = []
    for _ in range(3):
        seen.append(weight_of(model))
        model = step(model, x)
    return model.weight, seen
