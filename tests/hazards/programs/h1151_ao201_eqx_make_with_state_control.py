"""control (for h1140-h1143): a model of BatchNorm, a SpectralNorm-wrapped Linear and a
ConvTranspose2d split by `eqx.nn.make_with_state`, replaced with its state by every
`eqx.filter_jit` step: distinct buffers, donated safely, results unchanged."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Model(eqx.Module):
    norm: eqx.nn.BatchNorm
    spectral: eqx.nn.SpectralNorm
    up: eqx.nn.ConvTranspose2d

    def __init__(self, key):
        key1, key2, key3 = jax.random.split(key, 3)
        self.norm = eqx.nn.BatchNorm(input_size=3, axis_name="batch", mode="batch")
        self.spectral = eqx.nn.SpectralNorm(
            layer=eqx.nn.Linear(3, 3, key=key1), weight_name="weight", key=key2
        )
        self.up = eqx.nn.ConvTranspose2d(1, 1, 2, key=key3)

    def __call__(self, x, state):
        x, state = self.norm(x, state)
        x, state = self.spectral(x, state)
        return jnp.sum(self.up(x[None, None, :])), state


def loss_fn(model, state, xs):
    out, state = jax.vmap(model, axis_name="batch", in_axes=(0, None), out_axes=(0, None))(
        xs, state
    )
    return jnp.mean(out**2), state


@eqx.filter_jit
def step(xs, model, state):
    (loss, state), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model, state, xs)
    params, static = eqx.partition(model, eqx.is_inexact_array)
    params = jax.tree.map(
        lambda p, g: p - 0.01 * g, params, eqx.filter(grads, eqx.is_inexact_array)
    )
    return eqx.combine(params, static), state, loss


def main():
    model, state = eqx.nn.make_with_state(Model)(jax.random.key(0))
    xs = jnp.arange(12.0).reshape(4, 3) / 10.0
    for _ in range(3):
        model, state, loss = step(xs, model, state)
    return loss, model.up.weight
