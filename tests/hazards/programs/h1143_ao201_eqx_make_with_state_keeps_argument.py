"""equinox: a module built by `eqx.nn.make_with_state(Scaled)(scale)` stores the caller's
`scale` array as a field; the caller compares the trained field with `scale` after the
loop. Trap for AO201: donating the model deletes `scale`."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Scaled(eqx.Module):
    scale: jax.Array
    norm: eqx.nn.BatchNorm

    def __init__(self, scale):
        self.scale = scale
        self.norm = eqx.nn.BatchNorm(3, "batch", mode="batch")


@eqx.filter_jit
def step(x, model, state):
    return eqx.tree_at(lambda m: m.scale, model, model.scale + x), state


def main():
    scale = jnp.array([1.0, 2.0, 3.0])
    model, state = eqx.nn.make_with_state(Scaled)(scale)
    x = jnp.full(3, 0.5)
    for _ in range(3):
        model, state = step(x, model, state)
    return model.scale - scale
