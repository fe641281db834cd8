"""equinox stateful model: a running-mean normaliser whose `eqx.nn.StateIndex` is
initialised with the module-level calibration vector `CALIB`. `make_with_state` puts that
very array into the `State`. Trap for AO201: `eqx.filter_jit(donate="all")` of the step
that takes `(model, state)` deletes `CALIB`, read after training."""

import equinox as eqx
import jax
import jax.numpy as jnp

CALIB = jnp.array([0.5, -0.25, 1.0])


class RunningNorm(eqx.Module):
    index: eqx.nn.StateIndex
    scale: jax.Array

    def __init__(self):
        self.index = eqx.nn.StateIndex(CALIB)
        self.scale = jnp.ones(3)

    def __call__(self, x, state):
        mean = state.get(self.index)
        new_mean = 0.9 * mean + 0.1 * jnp.mean(x, axis=0)
        state = state.set(self.index, new_mean)
        return (x - new_mean) * self.scale, state


@eqx.filter_jit
def step(model, state, x):
    def loss(m):
        out, new_state = m(x, state)
        return jnp.mean(out**2 - 0.5 * out), new_state

    (value, state), grads = eqx.filter_value_and_grad(loss, has_aux=True)(model)
    model = jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)
    return model, state, value


def main():
    model, state = eqx.nn.make_with_state(RunningNorm)()
    xs = jnp.arange(24.0).reshape(4, 2, 3) / 10.0
    for x in xs:
        model, state, value = step(model, state, x)
    return model.scale, state.get(model.index) - CALIB, value
