"""A batch taken from an attribute of the model (issue 26): each step feeds the model's
own `anchor` array back as the input. Trap for AO201 (`donate="all"`): the model and
the batch hold one buffer, donated twice."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Model(eqx.Module):
    weight: jax.Array
    anchor: jax.Array


@eqx.filter_jit
def make_step(model, x):
    loss = jnp.sum((model.weight @ x) ** 2)
    return Model(model.weight * 0.9, model.anchor + 1.0), loss


def main():
    model = Model(jnp.eye(3), jnp.arange(3.0))
    losses = []
    for _ in range(3):
        x = model.anchor
        model, loss = make_step(model, x)
        losses.append(loss)
    return model, losses
