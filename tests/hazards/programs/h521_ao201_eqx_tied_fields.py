"""An equinox module whose `__init__` stores one layer in two fields (tied weights):
its pytree holds each weight twice. Trap for AO201's distinct-leaves premise on a module
class of the file: donating `model` donates one buffer twice."""

import equinox as eqx
import jax
import jax.numpy as jnp


class TiedAutoencoder(eqx.Module):
    encoder: eqx.nn.Linear
    decoder: eqx.nn.Linear

    def __init__(self, key):
        self.encoder = eqx.nn.Linear(3, 3, key=key)
        self.decoder = self.encoder


@jax.jit
def step(model, x):
    grads = jax.grad(lambda m: jnp.sum(m.decoder(m.encoder(x)) ** 2))(model)
    return jax.tree.map(lambda p, g: p - 0.01 * g, model, grads)


def main():
    model = TiedAutoencoder(jax.random.key(0))
    x = jnp.arange(3.0)
    for _ in range(3):
        model = step(model, x)
    return model.encoder.weight, model.decoder.bias
