"""A generic supervised loop reused for an autoencoder: each batch dict is unpacked as
`batch[input_key], batch[target_key]`, and for the autoencoder both keys are `"x"`.
Trap for AO201: the step's input and target are one buffer; a donation of every
argument (`eqx.filter_jit(donate="all")`) donates it twice."""

import equinox as eqx
import jax
import jax.numpy as jnp


def batches(n):
    for k in range(n):
        x = jnp.sin(jnp.arange(4.0) + k)
        yield {"x": x, "label": jnp.sign(x)}


@eqx.filter_jit
def fit_step(w, inputs, targets):
    def loss(w):
        return jnp.mean((jnp.tanh(w @ inputs) - targets) ** 2)

    value, g = jax.value_and_grad(loss)(w)
    return w - 0.3 * g, value


def train(input_key, target_key):
    w = jnp.eye(4) * 0.5
    for batch in batches(6):
        w, value = fit_step(w, batch[input_key], batch[target_key])
    return w, value


def main():
    w_ae, loss_ae = train("x", "x")
    w_cls, loss_cls = train("x", "label")
    print("autoencoder", round(float(loss_ae), 5), "classifier", round(float(loss_cls), 5))
    return w_ae, w_cls
