"""equinox: a module stores a Linear layer in one field and wraps the same layer with
`eqx.nn.SpectralNorm` in another: the weight fills two leaves of the model. Trap for
AO201: donating the model from `eqx.nn.make_with_state` donates the weight twice."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Twice(eqx.Module):
    linear: eqx.nn.Linear
    spectral: eqx.nn.SpectralNorm

    def __init__(self, key):
        key1, key2 = jax.random.split(key)
        linear = eqx.nn.Linear(3, 3, key=key1)
        self.linear = linear
        self.spectral = eqx.nn.SpectralNorm(linear, "weight", key=key2)

    def __call__(self, x, state):
        y, state = self.spectral(self.linear(x), state)
        return y, state


@eqx.filter_jit
def step(x, model, state):
    y, state = model(x, state)
    params, static = eqx.partition(model, eqx.is_inexact_array)
    params = jax.tree.map(lambda p: p * 0.99, params)
    return eqx.combine(params, static), state, y


def main():
    model, state = eqx.nn.make_with_state(Twice)(jax.random.key(0))
    x = jnp.array([1.0, -1.0, 0.5])
    for _ in range(3):
        model, state, y = step(x, model, state)
    return y, model.linear.weight
