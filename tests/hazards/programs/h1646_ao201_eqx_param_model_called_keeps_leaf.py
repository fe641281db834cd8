"""equinox: a model handed to a training function, which calls it eagerly every step
before the jitted step replaces it (issue 26). Its class's `__call__` keeps its weight
in a module list. Trap for AO201 (`donate="all"`): the model is a parameter there, so
its class is unknown, but the code `model(x)` runs holds the model; donating `model`
deletes the weights the list holds."""

import equinox as eqx
import jax
import jax.numpy as jnp

SEEN = []


class Model(eqx.Module):
    w: jax.Array

    def __call__(self, x):
        SEEN.append(self.w)
        return x @ self.w


@eqx.filter_jit
def step(model):
    return eqx.tree_at(lambda m: m.w, model, model.w - 0.1)


def train(model, x):
    for _ in range(3):
        print(model(x))
        model = step(model)
    return model


def main():
    model = Model(jnp.ones(3))
    x = jnp.ones(3)
    model = train(model, x)
    return model.w, [s.sum() for s in SEEN]
