"""nnx autoencoder: decoder and encoder built apart, then the decoder's kernel tied by
assignment.
"""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Encoder(nnx.Module):
    def __init__(self, rngs):
        self.kernel = nnx.Param(jax.random.normal(rngs.params(), (4, 2)) * 0.3)

    def __call__(self, x):
        return jnp.tanh(x @ self.kernel.value)


class Decoder(nnx.Module):
    def __init__(self, rngs):
        self.kernel = nnx.Param(jax.random.normal(rngs.params(), (4, 2)) * 0.3)

    def __call__(self, z):
        return z @ self.kernel.value.T


@nnx.jit
def train_step(enc, dec, enc_opt, x):
    def loss_fn(e):
        return jnp.mean((dec(e(x)) - x) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(enc)
    enc_opt.update(enc, grads)
    return loss


def main():
    rngs = nnx.Rngs(0)
    enc, dec = Encoder(rngs), Decoder(rngs)
    dec.kernel = enc.kernel
    enc_opt = nnx.Optimizer(enc, optax.sgd(0.1), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(3), (8, 4))
    for _ in range(4):
        loss = train_step(enc, dec, enc_opt, x)
    return loss, dec.kernel.value.sum()
