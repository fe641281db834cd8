"""equinox: a module class stores the list it is given as a field, and the caller gives
`[w, w]`. Trap for AO201 (`donate="all"`): the model holds `w` in two leaves."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Holder(eqx.Module):
    pair: list

    def __init__(self, pair):
        self.pair = pair


@eqx.filter_jit
def step(model):
    return jax.tree.map(lambda p: p * 0.5, model)


def main():
    w = jnp.arange(4.0)
    model = Holder([w, w])
    for _ in range(3):
        model = step(model)
    return model.pair
