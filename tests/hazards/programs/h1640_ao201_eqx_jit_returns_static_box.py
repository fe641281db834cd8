"""equinox: an `eqx.filter_jit` function returns a plain object it was given as it is (a
static leaf), which holds the model's weight. Trap for AO201 (`donate="all"`): that
result is no new buffer; donating `model` deletes the weight `kept` still reads."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Box:
    """No pytree: `filter_jit` hands it back as the very object."""

    def __init__(self, value):
        self.value = value


class Linear(eqx.Module):
    weight: jax.Array


@eqx.filter_jit
def step(model, x):
    return eqx.tree_at(lambda m: m.weight, model, model.weight - 0.1 * x)


@eqx.filter_jit
def carry(model, box):
    return box


def main():
    model = Linear(jnp.arange(4.0))
    x = jnp.ones(4)
    kept = carry(model, Box(model.weight))
    for _ in range(3):
        model = step(model, x)
    return model.weight, kept.value
