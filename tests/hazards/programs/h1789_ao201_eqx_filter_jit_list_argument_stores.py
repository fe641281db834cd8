"""equinox: a `filter_jit` step that takes the model and a plain list (a history); a
helper outside the jit appends the model's weight to that same list after each step.
Trap for AO201 (`donate="all"`): donating the model deletes the weights the history
holds; donating the list argument would donate them too."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Model(eqx.Module):
    w: jax.Array


@eqx.filter_jit
def step(model, x):
    return Model(model.w - 0.1 * x * model.w)


def record(model, history):
    history.append(model.w)


def main():
    model = Model(jnp.array([1.0, 2.0, 3.0]))
    x = jnp.array([0.5, 0.1, 0.2])
    history = []
    for _ in range(4):
        model = step(model, x)
        record(model, history)
    return jnp.stack(history)
