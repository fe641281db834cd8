"""equinox: a data loader built from a list of batches, to which the model's weight is
appended after the loader was made (issue 26). Trap for AO201 (`donate="all"`): the
loader holds the weight through the list; donating `model` deletes it before the loader
is read after training."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Linear(eqx.Module):
    weight: jax.Array


class Loader:
    def __init__(self, batches):
        self.batches = batches

    def __iter__(self):
        return iter(self.batches)


@eqx.filter_jit
def make_step(model, x):
    return eqx.tree_at(lambda m: m.weight, model, model.weight - 0.1 * x)


def main():
    model = Linear(jnp.arange(4.0))
    batches = [jnp.ones(4), jnp.full(4, 2.0)]
    loader = Loader(batches)
    batches.append(model.weight)
    x = jnp.ones(4)
    for _ in range(3):
        model = make_step(model, x)
    return model.weight, [jnp.sum(b) for b in loader]
